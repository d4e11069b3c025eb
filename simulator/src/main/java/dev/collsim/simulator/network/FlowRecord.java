package dev.collsim.simulator.network;

/**
 * One simulated flow, for {@code --timeline}: a transfer (or several identical ones merged: same GPUs, same
 * route, same bytes, e.g. the channels of a ring step on one NVLink path) from its start to its last byte.
 *
 * @param job     job name
 * @param step    step index in the schedule
 * @param copy    which copy of a repeated step (0-based); only simulated copies are recorded
 * @param src     sending rank
 * @param dst     receiving rank
 * @param channel channel of the first merged transfer
 * @param flows   number of identical transfers merged into this flow
 * @param bytes   bytes of each merged transfer
 * @param startUs when the step started, microseconds
 * @param endUs   when its last byte arrived, microseconds
 * @param copies  number of consecutive identical copies this record stands for (1, or more when the flow
 *                backend skipped over repeated copies of a step by symmetry): copy {@code copy + i} runs from
 *                {@code startUs + i periodUs} to {@code endUs + i periodUs}
 * @param periodUs time between two copies, microseconds (0 when {@code copies == 1})
 */
public record FlowRecord(String job, int step, long copy, int src, int dst, int channel, int flows, double bytes,
        double startUs, double endUs, long copies, double periodUs) {
}
