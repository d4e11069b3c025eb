package dev.collsim.simulator.schedule;

/**
 * One point-to-point transfer of a step: rank {@code src} sends {@code bytes} to rank {@code dst} on one channel.
 *
 * <p>{@code bytes} is a {@code double} because a step that stands for several identical steps (see
 * {@link Step#repeat()}) or a buffer that does not split evenly into {@code nRanks x nChannels} pieces carries the
 * exact mean share (e.g. {@code S / (n nChannels)} for one ring step); the sum over a schedule is then exactly
 * the bytes the algorithm moves, which whole-byte rounding would not give.
 *
 * @param src     sending rank, {@code 0 <= src < nRanks}
 * @param dst     receiving rank, different from {@code src}
 * @param bytes   bytes sent, finite and {@code >= 0}
 * @param channel NCCL channel index, {@code >= 0} (a network backend may hash it to pick one of several
 *                equal-cost paths, as NCCL's separate queue pairs per channel are hashed by an ECMP fabric)
 */
public record Transfer(int src, int dst, double bytes, int channel) {

    /** @throws IllegalArgumentException on a negative rank or channel, {@code src == dst}, or bad bytes */
    public Transfer {
        if (src < 0 || dst < 0 || channel < 0) {
            throw new IllegalArgumentException("transfer " + src + "->" + dst + " channel " + channel
                    + ": ranks and channel must be >= 0");
        }
        if (src == dst) {
            throw new IllegalArgumentException("transfer from rank " + src + " to itself");
        }
        if (!(bytes >= 0) || Double.isInfinite(bytes)) {
            throw new IllegalArgumentException("transfer " + src + "->" + dst + ": bytes must be finite and >= 0, got "
                    + bytes);
        }
    }
}
