"""The image lists the scripts share ("group/file.jpg" a line, # comments): model/train_images.txt,
held_out_images.txt, validation_images.txt, unlabelled_cards.txt. No torch: choose_point.py reads them."""


def content_lines(path):
    """(line number, text) of each line of `path` that holds more than a # comment."""
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if line:
                yield n, line


def read_list(path):
    """The images of an eval --list file: group/file.jpg a line."""
    return [line for _, line in content_lines(path)]
