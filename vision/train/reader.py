"""The index reader: a small CNN that reads one corner index from a square crop around it (32 x 32).

The detector (model.py) finds where indices are; reading rank and suit from a 160-pixel context costs
far more per labelled example than reading it from a 32-pixel crop, and on 2 CPU cores examples per
second decide what can be learnt. Output [N, 82, 1, 1]: rank logits (13), suit logits (4), an
"is a card index" logit (BACK, jokers and false peaks are not), and the 64-d embedding deck enrolment
keeps prototypes of.
"""
import cv2
import torch
import torch.nn as nn

from model import RANKS, SUITS, conv_bn, dw_sep

CROP = 32
CROP_SCALE = 1.3  # the crop's side is this times the box's longer side
EMB = 64
OUT = len(RANKS) + len(SUITS) + 1 + EMB


class IndexReader(nn.Module):
    def __init__(self):
        super().__init__()
        # ~1.5 MMAC a crop: on 2 shared cores, examples per second decide what can be learnt.
        self.body = nn.Sequential(
            conv_bn(3, 16, 3, 1),          # 32
            dw_sep(16, 32, 2),             # 16
            dw_sep(32, 32),
            dw_sep(32, 64, 2),             # 8
            dw_sep(64, 64),
            dw_sep(64, 96, 2))             # 4
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.emb = nn.Conv2d(96, EMB, 1)
        self.head = nn.Conv2d(EMB, len(RANKS) + len(SUITS) + 1, 1)

    def forward(self, x):
        e = self.emb(self.pool(self.body(x)))
        return torch.cat([self.head(torch.relu(e)), e], 1)


def crop(img, cx, cy, side, angle=0.0):
    """The square around (cx, cy) of `side` pixels, turned by `angle` degrees, resized to CROP x CROP.
    The C++ reader (vision/recogniser.cpp) crops the same way, with angle 0."""
    s = CROP / max(side, 1.0)
    M = cv2.getRotationMatrix2D((cx, cy), angle, s)
    M[:, 2] += (CROP / 2 - cx, CROP / 2 - cy)
    return cv2.warpAffine(img, M, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
