package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Multi-rank data layouts exercised on the CPU: a reference implementation of each collective written from
 * NCCL's definitions (nccl.h API comments), fed with the {@link Verifiable} inputs of 4 ranks, must pass the check
 * with 0 wrong elements; a deliberately wrong variant (ranks' blocks swapped, or rank 1's data lost) must fail.
 */
class DataLayoutTest {

    static final int N = 4;
    static final int ROOT = 2;

    @ParameterizedTest
    @EnumSource(Collective.class)
    void referenceCollectivePassesAndBrokenOneFails(Collective c) {
        DataType t = DataType.FLOAT;
        RedOp op = c.isReduction() ? RedOp.SUM : RedOp.SUM;
        Verifiable v = new Verifiable(op, t, N);
        CollGeometry g = CollGeometry.of(c, 4096 / 4, 4, N);
        double[][] in = new double[N][];
        for (int r = 0; r < N; r++) {
            in[r] = new double[(int) g.sendCount()];
            for (int j = 0; j < in[r].length; j++) {
                in[r][j] = v.input(r, j);
            }
        }
        double[][] out = reference(c, g, in, false);
        double[][] bad = reference(c, g, in, true);
        long wrongGood = 0;
        long wrongBad = 0;
        for (int r = 0; r < N; r++) {
            wrongGood += check(c, g, v, t, r, out[r]);
            wrongBad += check(c, g, v, t, r, bad[r]);
        }
        assertEquals(0, wrongGood, c + " reference implementation");
        assertTrue(wrongBad > 0, c + " broken implementation must be caught");
    }

    private static long check(Collective c, CollGeometry g, Verifiable v, DataType t, int rank, double[] recv) {
        ByteBuffer b = ByteBuffer.allocate(recv.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : recv) {
            b.putFloat((float) x);
        }
        long wrong = 0;
        for (DataLayout.Segment s : DataLayout.expected(c, g, N, rank, ROOT)) {
            double[] values = s.srcRank() == DataLayout.REDUCED ? v.reducedPeriod() : v.inputValues(s.srcRank());
            byte[] bytes = VerifiableTest.encode(values, t);
            ByteBuffer src = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            src.position((int) s.offset() * 4);
            wrong += PatternIo.countWrong(src, bytes, values, t, v, s.phase(), s.count());
        }
        return wrong;
    }

    /** NCCL semantics; {@code broken} introduces one realistic bug per collective. */
    private static double[][] reference(Collective c, CollGeometry g, double[][] in, boolean broken) {
        int cnt = (int) g.paramCount();
        double[][] out = new double[N][(int) g.recvCount()];
        for (double[] o : out) {
            Arrays.fill(o, Double.NaN);
        }
        int lost = broken ? 1 : -1;
        for (int q = 0; q < N; q++) {
            switch (c) {
                case ALL_REDUCE, REDUCE -> {
                    if (c == Collective.ALL_REDUCE || q == ROOT) {
                        for (int i = 0; i < cnt; i++) {
                            double s = 0;
                            for (int r = 0; r < N; r++) {
                                s += r == lost && i == 7 ? 0 : in[r][i];
                            }
                            out[q][i] = s;
                        }
                    }
                }
                case BROADCAST -> System.arraycopy(in[broken && q == 3 ? 0 : ROOT], 0, out[q], 0, cnt);
                case ALL_GATHER, GATHER -> {
                    if (c == Collective.ALL_GATHER || q == ROOT) {
                        for (int p = 0; p < N; p++) {
                            System.arraycopy(in[broken ? (p + 1) % N : p], 0, out[q], p * cnt, cnt);
                        }
                    }
                }
                case REDUCE_SCATTER -> {
                    for (int i = 0; i < cnt; i++) {
                        double s = 0;
                        for (int r = 0; r < N; r++) {
                            s += in[r][(broken ? 0 : q) * cnt + i];
                        }
                        out[q][i] = s;
                    }
                }
                case ALL_TO_ALL -> {
                    for (int p = 0; p < N; p++) {
                        System.arraycopy(in[p], (broken ? p : q) * cnt, out[q], p * cnt, cnt);
                    }
                }
                case SEND_RECV -> System.arraycopy(in[Math.floorMod(q - (broken ? 2 : 1), N)], 0, out[q], 0, cnt);
                case SCATTER -> System.arraycopy(in[ROOT], (broken ? N - 1 - q : q) * cnt, out[q], 0, cnt);
            }
        }
        return out;
    }
}
