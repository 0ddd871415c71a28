"""Synthetic training scenes rendered from Debian's free card art (kdegames-card-data-kf5).

Each card face is rendered once with rsvg-convert; its corner index (rank over suit, top-left) is found
as the ink near the corner, and the opposite index is the same box turned 180 degrees (cards are
point-symmetric). Scenes put several cards on cloth or wood-like backgrounds with rotation, perspective,
overlap (an index hidden under another card is not labelled), blur, glare and noise.
"""
import glob
import gzip
import os
import subprocess

import cv2
import numpy as np

from model import RANKS, SUITS

DECK_DIR = "/usr/share/carddecks"
SVG_RANK = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}
SVG_SUIT = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
# Decks whose cards rsvg-convert renders alone (--export-id) with a standard corner index.
DECKS = ["svg-standard", "svg-nicu-white", "svg-dondorf", "svg-tigullio-international"]
# More decks, each a font of its own, with the corner index top left: their cards are drawn under a
# transform, so rsvg-convert's `-w` sizes a larger canvas and the card comes out small; render_face()
# renders them a second time at the width that makes the card itself CARD_W. Left out: the oxygen decks
# (the rank alone at the top right, the suit elsewhere: no index to learn), future (`-i` renders
# another element), konqi-modern and xskat (no document size for rsvg-convert), xskat-german (German suits).
MORE_DECKS = ["svg-gm-paris", "svg-jolly-royal", "svg-penguins", "svg-nicu-ornamental", "svg-ancient-egyptians"]
CARD_W = 240


def index_box(img):
    """Ink bounding box of the top-left corner index of a rendered face (x0, y0, x1, y1) or None."""
    h, w = img.shape[:2]
    a = img[:, :, 3] > 128
    gray = cv2.cvtColor(img[:, :, :3], cv2.COLOR_BGR2GRAY)
    sat = cv2.cvtColor(img[:, :, :3], cv2.COLOR_BGR2HSV)[:, :, 1]
    ink = ((gray < 150) | (sat > 100)) & a
    region = np.zeros_like(ink)
    region[int(0.015 * h):int(0.33 * h), int(0.015 * w):int(0.22 * w)] = True
    ink = (ink & region).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    x0 = y0 = 10 ** 9
    x1 = y1 = -1
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < 6 or bw > 0.2 * w or bh > 0.2 * h or x < 0.02 * w or y < 0.015 * h:
            continue  # specks, frame lines, the card's border
        if x > 0.17 * w or y > 0.3 * h:
            continue
        x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + bw), max(y1, y + bh)
    if x1 < 0 or (x1 - x0) < 0.04 * w or (y1 - y0) < 0.08 * h:
        return None
    if y0 > 0.1 * h or (y1 - y0) < 1.3 * (x1 - x0):
        return None  # not rank over suit from the top: a frame line or the picture was taken for it
    return (x0, y0, x1, y1)


def deck_list(choice):
    """The decks named by --decks: 'standard', 'more', 'all' or a comma-separated list."""
    named = {"standard": DECKS, "more": MORE_DECKS, "all": DECKS + MORE_DECKS}
    if choice in named:
        return list(named[choice])
    decks = [d.strip() for d in choice.split(",") if d.strip()]
    unknown = [d for d in decks if d not in DECKS + MORE_DECKS]
    if not decks or unknown:
        raise SystemExit(f"--decks {choice!r}: unknown deck(s) {unknown}; known: {', '.join(DECKS + MORE_DECKS)}")
    return decks


def render_face(svg, cid, png):
    """The card `cid` of `svg` as a BGRA image cropped to the card, CARD_W wide, cached in `png`."""
    def run(width):
        subprocess.run(["rsvg-convert", "-i", cid, "-w", str(width), svg, "-o", png], check=False,
                       stderr=subprocess.DEVNULL)
    if not os.path.exists(png) and os.path.exists(svg):
        run(CARD_W)
        img = cv2.imread(png, cv2.IMREAD_UNCHANGED)
        if img is not None and img.ndim == 3 and img.shape[2] == 4 and (img[:, :, 3] > 10).any():
            xs = np.nonzero((img[:, :, 3] > 10).any(0))[0]
            if xs.max() + 1 - xs.min() < 0.8 * CARD_W:  # drawn small on a larger canvas: once more, larger
                run(min(20000, int(CARD_W * CARD_W / (xs.max() + 1 - xs.min()))))
    img = cv2.imread(png, cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4 or not (img[:, :, 3] > 10).any():
        return None
    ys, xs = np.nonzero(img[:, :, 3] > 10)
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def render_decks(cache, decks):
    """[(card (rank, suit), BGRA face, index box)] for every deck that renders; cached as PNGs."""
    os.makedirs(cache, exist_ok=True)
    faces = []
    for deck in decks:
        # A cache filled on another machine is enough: a training machine without the deck packages or
        # rsvg-convert (an accelerator machine) reads the faces rendered here.
        svgz = glob.glob(os.path.join(DECK_DIR, deck, "*.svgz"))
        svg = os.path.join(cache, deck + ".svg")
        if svgz and not os.path.exists(svg):
            with gzip.open(svgz[0]) as f, open(svg, "wb") as o:
                o.write(f.read())
        for ri, r in enumerate(RANKS):
            for si, s in enumerate(SUITS):
                cid = f"{SVG_RANK.get(r, r)}_{SVG_SUIT[s]}"
                img = render_face(svg, cid, os.path.join(cache, f"{deck}_{cid}.png"))
                if img is None:
                    continue
                ratio = img.shape[1] / img.shape[0]
                if not 0.6 < ratio < 0.8:
                    continue  # the element did not render alone
                box = index_box(img)
                if box:
                    faces.append(((ri, si), img, box))
    return faces


def background(rng, size):
    kind = rng.integers(3)
    base = rng.integers(0, 256, 3)
    img = np.full((size, size, 3), base, np.float32)
    if kind == 0:  # cloth: fine noise
        img += rng.normal(0, rng.uniform(2, 15), (size, size, 1))
    elif kind == 1:  # wood: stretched noise stripes
        n = cv2.resize(rng.normal(0, 25, (size, 8)).astype(np.float32), (size, size))
        img += n[:, :, None]
    else:  # textured: blurred blobs
        n = cv2.GaussianBlur(rng.normal(0, 40, (size, size)).astype(np.float32), (0, 0), rng.uniform(2, 12))
        img += n[:, :, None]
    return img


def recolour(rng, face):
    """Decks differ in colour, not only in font: an inverted face (light ink on a dark card, like the
    corpus's black-and-gold deck) or a tinted one, so the networks learn the index's shape rather than
    dark ink on white. Alpha is kept."""
    out = face.copy()
    bgr = out[:, :, :3].astype(np.float32)
    if rng.random() < 0.5:
        bgr = 255 - bgr
    tint = rng.uniform(0.55, 1.0, 3)
    bgr = bgr * tint + rng.uniform(0, 60, 3) * (1 - tint)
    out[:, :, :3] = np.clip(bgr, 0, 255).astype(np.uint8)
    return out


def scene(rng, faces, size, recolour_share=0.0):
    """One synthetic image (uint8 BGR, size x size) and its index boxes [(cx, cy, w, h, card)] in pixels."""
    img = background(rng, size)
    owner = np.full((size, size), -1, np.int32)
    placed = []
    ncards = int(rng.integers(1, 7))
    for k in range(ncards):
        card, face, (x0, y0, x1, y1) = faces[int(rng.integers(len(faces)))]
        if recolour_share and rng.random() < recolour_share:
            face = recolour(rng, face)
        fh, fw = face.shape[:2]
        # index height 14..70 px in the scene
        scale = rng.uniform(14, 70) / (y1 - y0)
        ang = rng.uniform(0, 2 * np.pi)
        c, s = np.cos(ang) * scale, np.sin(ang) * scale
        cx, cy = rng.uniform(0.15, 0.85) * size, rng.uniform(0.15, 0.85) * size
        src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
        ctr = src - [fw / 2, fh / 2]
        dst = np.stack([ctr[:, 0] * c - ctr[:, 1] * s + cx, ctr[:, 0] * s + ctr[:, 1] * c + cy], 1)
        dst += rng.normal(0, 0.03 * scale * fh, dst.shape)  # perspective
        H = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        warped = cv2.warpPerspective(face, H, (size, size), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        a = warped[:, :, 3:4].astype(np.float32) / 255
        img = img * (1 - a) + warped[:, :, :3].astype(np.float32) * a
        owner[a[:, :, 0] > 0.5] = k
        for bx in ((x0, y0, x1, y1), (fw - x1, fh - y1, fw - x0, fh - y0)):
            pts = np.float32([[bx[0], bx[1]], [bx[2], bx[1]], [bx[2], bx[3]], [bx[0], bx[3]]]).reshape(-1, 1, 2)
            q = cv2.perspectiveTransform(pts, H).reshape(-1, 2)
            placed.append((k, q, card))
    boxes = []
    for k, q, card in placed:
        qx0, qy0 = q.min(0)
        qx1, qy1 = q.max(0)
        if qx0 < 0 or qy0 < 0 or qx1 >= size or qy1 >= size:
            continue
        mask = np.zeros((size, size), np.uint8)
        cv2.fillConvexPoly(mask, q.astype(np.int32), 1)
        inside = owner[mask > 0]
        if inside.size and (inside == k).mean() > 0.85:  # an index under another card is not visible
            boxes.append(((qx0 + qx1) / 2, (qy0 + qy1) / 2, qx1 - qx0, qy1 - qy0, card))
    # glare, blur, noise, brightness
    if rng.random() < 0.3:
        gx, gy = rng.uniform(0, size, 2)
        yy, xx = np.mgrid[0:size, 0:size]
        img += rng.uniform(40, 120) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * rng.uniform(10, 60) ** 2))[:, :, None]
    img = img * rng.uniform(0.6, 1.2) + rng.uniform(-30, 30)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.5))
    img += rng.normal(0, rng.uniform(0, 8), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), boxes
