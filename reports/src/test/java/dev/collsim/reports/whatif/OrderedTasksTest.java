package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Pieces of a report computed on several threads come back in submission order, a failure is the first one in that
 * order (the one a run piece after piece stops at), and the built-in report is the same on 1 and on 3 threads.
 */
class OrderedTasksTest {

    @Test
    void resultsInSubmissionOrderWhenLaterPiecesFinishFirst() throws InputException {
        CountDownLatch secondDone = new CountDownLatch(1);
        try (OrderedTasks<String> tasks = new OrderedTasks<>(2)) {
            tasks.submit(() -> {
                // finishes only after the second piece has: the order of results is not the order of finishing
                if (!secondDone.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("second piece never ran");
                }
                return "first";
            });
            tasks.submit(() -> {
                secondDone.countDown();
                return "second";
            });
            tasks.submit(() -> "third");
            assertEquals(List.of("first", "second", "third"), tasks.results(InputException.class));
        }
    }

    @Test
    void firstFailureInSubmissionOrderIsThrown() {
        InputException early = new InputException(new InputProblem("spec.yaml", 3, 0, "variants[0]", "first"));
        InputException late = new InputException(new InputProblem("spec.yaml", 9, 0, "variants[1]", "second"));
        CountDownLatch lateThrown = new CountDownLatch(1);
        try (OrderedTasks<String> tasks = new OrderedTasks<>(2)) {
            tasks.submit(() -> {
                lateThrown.await(10, TimeUnit.SECONDS);
                throw early;
            });
            tasks.submit(() -> {
                lateThrown.countDown();
                throw late;
            });
            assertSame(early, assertThrows(InputException.class, () -> tasks.results(InputException.class)));
        }
    }

    @Test
    void oneThreadRunsEachPieceOnTheCallersThread() throws InputException {
        Thread caller = Thread.currentThread();
        try (OrderedTasks<Boolean> tasks = new OrderedTasks<>(1)) {
            tasks.submit(() -> Thread.currentThread() == caller);
            assertEquals(List.of(true), tasks.results(InputException.class));
        }
    }

    @Test
    void builtinReportIsTheSameOnOneAndOnThreeThreads() throws InputException {
        ReportSpec spec = BuiltinSpec.read();
        ReportData one = new ReportRunner(new SimulatorResolver(null), null, ProgressListener.NONE, 1).run(spec);
        ReportData three = new ReportRunner(new SimulatorResolver(null), null, ProgressListener.NONE, 3).run(spec);
        // records compare every row and number (doubles bit for bit); per variant AllReduce 8 B..8 GiB x2 is
        // 2^3..2^33 (31 sizes) and AllToAll 1 KiB..4 GiB x4 is 2^10..2^32 (12 sizes): 6 x 43 sweep rows
        assertEquals(6 * 43, one.sweeps().size());
        assertEquals(one, three);
    }
}
