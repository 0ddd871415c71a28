"""The validation split (vision/model/validation_images.txt, vision/train/corpus.py validation): training
captures only, never a held-out one, and the committed list is the one corpus.py makes from the corpus;
train_reader.py --exclude-list leaves exactly those photographs out, and refuses a list naming a photograph
it does not train on (a validation split it had seen would be no validation)."""
import os
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../..")
sys.path.insert(0, os.path.join(ROOT, "vision/train"))
import corpus  # noqa: E402
import train_reader  # noqa: E402
from name_lists import read_list  # noqa: E402

MODEL = os.path.join(ROOT, "vision/model")
CORPUS = os.environ.get("CARDTABLE_CORPUS", "")
IMAGES = os.path.join(CORPUS, "images/roboflow_card_detection_v12") if CORPUS else ""


def listed(name):
    return read_list(os.path.join(MODEL, name))


class ValidationSplit(unittest.TestCase):
    def test_it_holds_training_captures_only_never_a_held_out_one(self):
        val, train, held = listed("validation_images.txt"), set(listed("train_images.txt")), set(listed("held_out_images.txt"))
        self.assertGreater(len(val), 30)
        self.assertEqual(len(val), len(set(val)))
        self.assertFalse(set(val) & held)
        self.assertLessEqual(set(val), train)
        # Every group has captures in it, so the point it chooses answers for every kind of photograph.
        self.assertEqual({v.split("/")[0] for v in val}, {t.split("/")[0] for t in train})

    @unittest.skipUnless(os.path.isdir(IMAGES), "no corpus (CARDTABLE_CORPUS): the committed list is not remade")
    def test_the_committed_list_is_the_one_corpus_py_makes(self):
        self.assertEqual(listed("validation_images.txt"), corpus.validation_list(IMAGES))

    def test_exclude_list_leaves_out_exactly_the_listed_photographs(self):
        real = [("g", "/x/g/images/a.jpg", []), ("g", "/x/g/images/b.jpg", []), ("h", "/x/h/images/a.jpg", [])]
        kept = train_reader.left_out(real, ["g/a.jpg"], "v.txt")
        self.assertEqual([(g, os.path.basename(p)) for g, p, _ in kept], [("g", "b.jpg"), ("h", "a.jpg")])
        with self.assertRaises(SystemExit) as e:
            train_reader.left_out(real, ["g/a.jpg", "g/c.jpg"], "v.txt")
        self.assertIn("v.txt", str(e.exception))
        self.assertIn("g/c.jpg", str(e.exception))


if __name__ == "__main__":
    unittest.main()
