/**
 * Advice on NCCL's settings from a calibrated model: where collsim's fastest predicted (algorithm, protocol,
 * channels) differs from NCCL's choice by more than the model's band ({@link dev.collsim.validation.tune.TuningBand}), written
 * as the configuration file of NCCL's example tuner plugin ({@link dev.collsim.validation.tune.TunerConfigFile}),
 * NCCL_ALGO/NCCL_PROTO/NCCL_MAX_NCHANNELS settings ({@link dev.collsim.validation.tune.TuneEnv}) and a table for people
 * ({@link dev.collsim.validation.tune.TuneTable}). Entry point: {@link dev.collsim.validation.tune.Tuner}.
 */
package dev.collsim.validation.tune;
