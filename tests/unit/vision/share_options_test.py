"""The training scripts' share options (--synth-share, --hard, --low-light, --remap, --fresh-scenes,
--recolour-share) are shares of the crops or images, 0..1: a 25 meant as a quarter is refused by name
before anything trains, not taken as "every crop"."""
import os
import subprocess
import sys
import unittest

TRAIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../vision/train")
sys.path.insert(0, TRAIN)
import feed  # noqa: E402


class ShareOptions(unittest.TestCase):
    def test_a_share_is_a_number_from_0_to_1(self):
        self.assertEqual(feed.share("0"), 0.0)
        self.assertEqual(feed.share("0.25"), 0.25)
        self.assertEqual(feed.share("1"), 1.0)
        for bad in ("25", "-0.1", "1.5", "nan", "a quarter"):
            with self.assertRaises(Exception, msg=bad):
                feed.share(bad)

    def test_a_ranged_option_names_its_range_and_what_it_is_for(self):
        # --crop-scale is a number in 0.5..4 (model.json reader.crop_scale is read in that range).
        scale = feed.number_in(0.5, 4, "a number", "model.json reader.crop_scale")
        self.assertEqual(scale("0.5"), 0.5)
        self.assertEqual(scale("4"), 4.0)
        for bad in ("13", "0.4", "nan", "wide"):
            with self.assertRaises(Exception, msg=bad) as refusal:
                scale(bad)
            self.assertEqual(str(refusal.exception), f"want a number in 0.5..4, not {bad!r} (model.json reader.crop_scale)")
        with self.assertRaises(Exception) as refusal:
            feed.share("25")
        self.assertEqual(str(refusal.exception), "want a share in 0..1, not '25' (a quarter is 0.25)")

    def refused(self, script, option, value):
        # The required options are given so that only the share can be what is refused.
        r = subprocess.run([sys.executable, os.path.join(TRAIN, script), "--corpus", "/nonexistent", "--out", "/nonexistent",
                            option, value], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 2, f"{script} {option} {value}: {r.stderr}")
        self.assertIn(option, r.stderr)
        self.assertIn("want a share in 0..1", r.stderr)

    def test_the_reader_script_refuses_a_share_past_1(self):
        for option in ("--synth-share", "--hard", "--low-light", "--remap", "--fresh-scenes", "--recolour-share"):
            self.refused("train_reader.py", option, "25")

    def test_the_detector_script_refuses_a_share_past_1(self):
        for option in ("--synth-share", "--recolour-share"):
            self.refused("train.py", option, "35")


if __name__ == "__main__":
    unittest.main()
