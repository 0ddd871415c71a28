// The square crop around a corner index that the reader reads, made as the reader's training made its
// crops (vision/train/reader.py, crop): side `side` pixels about (cx, cy) of the image, turned by `angle`
// degrees (anticlockwise), as `crop` x `crop`, the image's edge replicated beyond it, shrunk by the
// filter model.json names (ModelInfo::Reader::CropFilter).
#pragma once

#include <opencv2/core.hpp>

#include "vision/model_info.hpp"

namespace cardtable::vision {

// `upright` belongs to one index, empty before its first view: with the area filter it keeps the
// index's unturned crop, so that its other views -- quarter turns -- are that crop turned, not each
// averaged again from the image.
void index_crop(const cv::Mat& image, double cx, double cy, double side, double angle, int crop, ModelInfo::Reader::CropFilter filter,
                cv::Mat& upright, cv::Mat& out);

}  // namespace cardtable::vision
