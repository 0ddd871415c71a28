"""The reader's crop-level augmentations (vision/train/train_reader.py --low-light, --remap): what each
promises, checked on a crop drawn here (black ink on a white card), not on a corpus photograph."""
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../vision/train"))
import train_reader as tr  # noqa: E402


def ink_on_card():
    c = np.full((48, 48, 3), 235, np.uint8)  # a white card
    c[10:38, 20:28] = 20                      # a black stroke of the index
    return c


class Restyle(unittest.TestCase):
    def test_a_share_of_zero_changes_neither_the_crop_nor_the_random_stream(self):
        # A recipe without the new options must make the very batches it made before they existed.
        a, b = np.random.default_rng(3), np.random.default_rng(3)
        c = ink_on_card()
        self.assertIs(tr.restyle(a, c, 0.0, 0.0), c)
        self.assertEqual(a.random(), b.random())

    def test_remap_keeps_ink_and_card_apart_in_some_two_colours(self):
        for seed in range(50):
            out = tr.remap(np.random.default_rng(seed), ink_on_card())
            self.assertEqual(out.shape, (48, 48, 3))
            self.assertEqual(out.dtype, np.uint8)
            ink, card = out[20, 24].astype(float), out[2, 2].astype(float)
            self.assertGreater(abs(ink.mean() - card.mean()), 40, f"seed {seed}: ink {ink}, card {card}")

    def test_remap_puts_light_ink_on_a_dark_card_as_often_as_the_reverse(self):
        light_ink = 0
        for seed in range(200):
            out = tr.remap(np.random.default_rng(seed), ink_on_card()).astype(float)
            light_ink += out[20, 24].mean() > out[2, 2].mean()
        self.assertTrue(70 < light_ink < 130, light_ink)

    def test_low_light_darkens_and_flattens_but_leaves_the_index_visible(self):
        for seed in range(50):
            c = ink_on_card()
            out = tr.low_light(np.random.default_rng(seed), c).astype(float)
            self.assertLess(out.mean(), c.mean(), f"seed {seed}")
            contrast = out[2:8, 2:8].mean() - out[14:34, 22:26].mean()
            self.assertLess(contrast, 215, f"seed {seed}: no flatter than the drawn crop")
            self.assertGreater(contrast, 20, f"seed {seed}: the stroke still shows")


if __name__ == "__main__":
    unittest.main()
