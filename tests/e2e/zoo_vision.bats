#!/usr/bin/env bats
# The vision family of the model zoo (tests/e2e/zoo_vision.py): adaptive
# pools, bilinear upsampling and GroupNorm through the whole pipe, each
# compared with PyTorch eager.

load helpers

@test "model alexnet (adaptive avg pool 2x2 -> 6x6) matches PyTorch" { model alexnet vision; }
@test "model vgg11 (adaptive avg pool 2x2 -> 7x7) matches PyTorch" { model vgg11 vision; }
@test "model regnet_y_400mf matches PyTorch" { model regnet_y_400mf vision; }
@test "model deeplabv3_mobilenet_v3_large (bilinear upsampling) matches PyTorch" { model deeplabv3_mobilenet_v3_large vision; }
@test "model fcn_resnet50 (bilinear upsampling) matches PyTorch" { model fcn_resnet50 vision; }
@test "model unet_groupnorm (GroupNorm, bilinear scale 2) matches PyTorch" { model unet_groupnorm; }
