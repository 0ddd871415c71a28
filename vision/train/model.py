"""The corner-index network: a small depthwise-separable CenterNet.

One output tensor (so OpenCV 4.6's cv::dnn needs no split/TopK): at stride 8, channels
  0        heat   sigmoid: a corner index is centred here
  1..13    rank   logits, order RANKS
  14..17   suit   logits, order SUITS
  18..19   size   log(box w / 8), log(box h / 8)
  20..83   feat   the 64-d feature the heads read; `cardtable-vision enroll` keeps per-card prototypes of it
Rank and suit are separate heads (each class gets more examples than 52 flat classes); the C++ side
multiplies them. Only ReLU (no ReLU6: it exports as a 3-input Clip that OpenCV 4.6 rejects), nearest
Resize and Concat -- ops cv::dnn 4.6 reads.
"""
import torch
import torch.nn as nn

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["C", "D", "H", "S"]
STRIDE = 8
FEAT = 64
CHANNELS = 1 + len(RANKS) + len(SUITS) + 2 + FEAT


def conv_bn(cin, cout, k=3, s=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def dw_sep(cin, cout, s=1):
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, s, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, 1, 0, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CornerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = conv_bn(3, 12, 3, 2)                                  # /2
        self.s4 = nn.Sequential(dw_sep(12, 32, 2), dw_sep(32, 32))        # /4
        self.s8 = nn.Sequential(dw_sep(32, 64, 2), dw_sep(64, 64))   # /8
        self.s16 = nn.Sequential(dw_sep(64, 96, 2), dw_sep(96, 96), dw_sep(96, 96))  # /16
        self.s32 = nn.Sequential(dw_sep(96, 128, 2), dw_sep(128, 128))    # /32: context for big indices
        self.lat32 = conv_bn(128, 96, 1)
        self.lat16 = conv_bn(96, 64, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.neck = nn.Sequential(dw_sep(64, FEAT), dw_sep(FEAT, FEAT))
        self.heat = nn.Conv2d(FEAT, 1, 1)
        self.rank = nn.Conv2d(FEAT, len(RANKS), 1)
        self.suit = nn.Conv2d(FEAT, len(SUITS), 1)
        self.size = nn.Conv2d(FEAT, 2, 1)
        nn.init.constant_(self.heat.bias, -4.6)  # prior 1 %: CenterNet's start so focal loss is stable

    def forward(self, x):
        return self.tail(self.front(x))

    def front(self, x):
        """The stem and s4, which the C++ side computes by hand (vision/detector_front.hpp): [N, 32, H/4, W/4]."""
        return self.s4(self.stem(x))

    def tail(self, x):
        """The rest, from s4's output: what cards_tail.onnx holds (export_tail.py)."""
        f8 = self.s8(x)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        f16 = f16 + self.up(self.lat32(f32))
        f8 = f8 + self.up(self.lat16(f16))
        f = self.neck(f8)
        return torch.cat([torch.sigmoid(self.heat(f)), self.rank(f), self.suit(f), self.size(f), f], 1)


def macs(model, size=640):
    """Multiply-accumulates of one forward pass at size x size (conv layers only)."""
    total = 0
    hooks = []

    def hook(m, i, o):
        nonlocal total
        total += o.numel() // o.shape[0] * m.in_channels // m.groups * m.kernel_size[0] * m.kernel_size[1]

    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            hooks.append(m.register_forward_hook(hook))
    with torch.no_grad():
        model.eval()
        model(torch.zeros(1, 3, size, size))
    for h in hooks:
        h.remove()
    return total
