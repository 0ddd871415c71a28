"""The index reader: a small CNN that reads one corner index from a square crop around it (32 x 32; set_crop for more).

The detector (model.py) finds where indices are; reading rank and suit from a 160-pixel context costs
far more per labelled example than reading it from a 32-pixel crop, and on 2 CPU cores examples per
second decide what can be learnt. Output [N, 82, 1, 1]: rank logits (13), suit logits (4), an
"is a card index" logit (BACK, jokers and false peaks are not), and the 64-d embedding deck enrolment
keeps prototypes of.
"""
import cv2
import numpy as np
import torch
import torch.nn as nn

from model import RANKS, SUITS, conv_bn, dw_sep

CROP = 32
CROP_SCALE = 1.3  # the crop's side is this times the box's longer side
CROP_FILTERS = ("linear", "area")  # how a crop is shrunk to CROP (crop(); model.json reader.crop_filter)
EMB = 64
OUT = len(RANKS) + len(SUITS) + 1 + EMB
# The strip form (StripReader): crops side by side, STRIP_PITCH columns apart. The pitch is a multiple of
# the body's stride (8) and leaves 8 columns between crops, so after the three stride-2 layers one zero
# column still parts them and each crop's last cell reads zeros, as its own padding.
STRIP_PITCH = 40
STRIP_CROPS = 8


def set_crop(n):
    """Read indices at n x n instead of 32 (train_reader.py --crop; model.json reader.crop): more pixels
    per index, as the black-and-gold deck's 6s need (vision/README.md), at (n / 32)^2 the cost a crop.
    The body is all convolutions and one average pool, so the same weights read any multiple of 8; the
    strip's pitch keeps 8 gutter columns between crops."""
    global CROP, STRIP_PITCH
    if n < 16 or n % 8:
        raise ValueError(f"crop {n}: a multiple of 8, 16 or more (the body's stride is 8)")
    CROP, STRIP_PITCH = n, n + 8


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


class StripReader(nn.Module):
    """The same reader, the same weights, run on STRIP_CROPS crops laid side by side in one image:
    input [1, 4, CROP, STRIP_PITCH * STRIP_CROPS], channels 0-2 the crops (crop k at column
    k * STRIP_PITCH), channel 3 a mask, 1 on the crops and 0 in the gutters between them; output
    [1, OUT, 1, STRIP_CROPS], crop k in column k, equal to IndexReader's (within float rounding).

    Why: OpenCV 4.6's depthwise convolutions are slow on many small images (a 32 x 32 crop's 16 x 16 and
    8 x 8 maps) and fast on one wide one; read this way, a crop costs less than half as much on one core
    (vision/README.md, "Speed"). Exactness: before each 3 x 3 convolution the gutters are zeroed (times
    the mask, pooled along with the maps), so every crop sees zeros beyond its edges, as the padding of
    the network it was trained as. The mask is an input, not a constant: cv::dnn 4.6 broadcasts a
    [1, 1, H, W] tensor over channels only when it is not a constant."""

    def __init__(self, reader):
        super().__init__()
        self.r = reader

    def forward(self, strip):
        x, mask = strip[:, 0:3], strip[:, 3:4]
        blocks = list(self.r.body)
        x = blocks[0](x) * mask
        for b in blocks[1:]:
            x = b[2](b[1](b[0](x)))  # depthwise 3 x 3: reads the zeroed gutters as padding
            if b[0].stride[0] == 2:
                mask = nn.functional.max_pool2d(mask, 2, 2)
            x = b[5](b[4](b[3](x)))  # pointwise: fills the gutters, zeroed again before the next 3 x 3
            if b is not blocks[-1]:
                x = x * mask
        side, pitch = CROP // 8, STRIP_PITCH // 8
        e = self.r.emb(nn.functional.avg_pool2d(x, (side, side), stride=(side, pitch)))
        return torch.cat([self.r.head(torch.relu(e)), e], 1)


def strip_of(crops):
    """The StripReader input for up to STRIP_CROPS crops ([N, 3, CROP, CROP] float); unused places are
    zero, mask 0."""
    s = torch.zeros(1, 4, CROP, STRIP_PITCH * STRIP_CROPS)
    for k in range(crops.shape[0]):
        s[0, 0:3, :, k * STRIP_PITCH:k * STRIP_PITCH + CROP] = crops[k]
        s[0, 3, :, k * STRIP_PITCH:k * STRIP_PITCH + CROP] = 1
    return s


def crop(img, cx, cy, side, angle=0.0, filt="linear"):
    """The square around (cx, cy) of `side` pixels, turned by `angle` degrees, as CROP x CROP. The C++
    reader (vision/index_crop.cpp) crops the same way, by model.json's reader.crop_filter: `linear`, one
    bilinear warp straight to CROP (the readers trained before 2026-11-27), or `area`, a warp at the
    index's own size and then the average of every pixel into CROP x CROP (cv2.INTER_AREA), so that an
    index several times the crop's size (a phone's 100-pixel index read at 32) is not read through
    aliasing: a bilinear warp that shrinks by 3 reads one pixel in three."""
    if filt not in CROP_FILTERS:
        raise ValueError(f"crop filter {filt!r} is not one of {CROP_FILTERS}")
    side = max(side, 1.0)
    n = int(np.ceil(side)) if filt == "area" and side > CROP else CROP
    M = cv2.getRotationMatrix2D((cx, cy), angle, n / side)
    M[:, 2] += (n / 2 - cx, n / 2 - cy)
    c = cv2.warpAffine(img, M, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return c if n == CROP else cv2.resize(c, (CROP, CROP), interpolation=cv2.INTER_AREA)
