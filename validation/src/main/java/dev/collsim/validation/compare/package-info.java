/**
 * Lines measured points up with collsim's predictions (same collective, size, ranks and NCCL settings), reports
 * the absolute percentage error of time per point and its median, 90th percentile and maximum per dataset and
 * per regime, and builds the cluster from what a log reveals when none is given.
 */
package dev.collsim.validation.compare;
