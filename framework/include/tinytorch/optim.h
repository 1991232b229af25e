#pragma once
// torch::optim: the optimizers of module 07 (SGD, Adam, AdamW, RMSprop, Adagrad, LBFGS), their base class and the
// archive they save their state to. See tinytorch/optim/optimizer.h for the shared API.
#include "tinytorch/optim/adagrad.h"
#include "tinytorch/optim/adam.h"
#include "tinytorch/optim/adamw.h"
#include "tinytorch/optim/lbfgs.h"
#include "tinytorch/optim/optimizer.h"
#include "tinytorch/optim/rmsprop.h"
#include "tinytorch/optim/sgd.h"
#include "tinytorch/serialize/archive.h"
