#!/bin/sh
# The fine-tune of 2026-11-23 (issue 10, second session): one core, nice 10, 30 minutes in all.
cd /work/issue10/vision/train
C=/work/shared/data/corpus/images/roboflow_card_detection_v12
nice -n 10 /usr/bin/python3 train.py --corpus $C --out /tmp/i10/ft --cache /tmp/i10/cache --minutes 18 --threads 1 \
  --synth-share 0.7 --seed 11 --resume /tmp/i10/detector_step200.pt --resumed-steps 200 > /tmp/i10/ft/detector_finetune.log 2>&1
nice -n 10 /usr/bin/python3 train_reader.py --corpus $C --out /tmp/i10/ft --cache /tmp/i10/cache --minutes 11 --threads 1 \
  --synth-share 0.6 --synth-scenes 300 --seed 11 --resume /tmp/i10/reader.pt > /tmp/i10/ft/reader_finetune.log 2>&1
echo done > /tmp/i10/ft/DONE
