package dev.collsim.validation.tune;

import dev.collsim.nccl.Collective;
import java.util.List;

/**
 * One line of the tuner plugin's file: the (algorithm, protocol, channels) to set for calls of one collective whose
 * selection bytes lie in {@code minBytes..maxBytes} (inclusive, as the plugin matches). Lines of one collective are
 * contiguous and cover every byte count from the first swept size to the last ({@link LineCover}).
 *
 * @param collective the collective
 * @param minBytes   first byte count, bytes NCCL selects on
 * @param maxBytes   last byte count, inclusive, >= minBytes
 * @param target     what the line sets: collsim's advice, or NCCL's own choice with its own channel count
 * @param advised    true when the line carries advice, false when it restates NCCL's own choice
 * @param at         the point whose target the line writes (a swept size, or one read between two swept sizes,
 *                   {@link LineCover}): what the table shows for a line that holds no swept size
 * @param read       every point read inside the line's bytes (swept sizes, and the sizes {@link LineCover} read
 *                   between them), increasing bytes, at least {@code at}: the gains the table shows for a line that
 *                   holds no swept size
 */
public record ConfigLine(Collective collective, long minBytes, long maxBytes, TunePoint.Target target,
        boolean advised, TunePoint at, List<TunePoint> read) {

    /** @throws IllegalArgumentException when the range is empty or negative, or nothing was read in it */
    public ConfigLine {
        if (minBytes < 0 || maxBytes < minBytes) {
            throw new IllegalArgumentException("a line needs 0 <= minBytes <= maxBytes, got " + minBytes + ".."
                    + maxBytes);
        }
        read = List.copyOf(read);
        if (read.isEmpty()) {
            throw new IllegalArgumentException("a line needs at least one point read in it");
        }
    }
}
