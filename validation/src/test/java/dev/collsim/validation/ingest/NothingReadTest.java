package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.io.InputException;
import org.junit.jupiter.api.Test;

/**
 * A file of NCCL_DEBUG=INFO lines alone (what a user saves from a training job's log) has no timings: the refusal
 * says so and what to add, instead of only "no nccl-tests table". Lines in NCCL 2.30's {@code host:pid:tid [dev] NCCL
 * INFO} form (src/debug.cc), one behind mpirun's {@code [1,3]<stdout>:} prefix.
 */
class NothingReadTest {

    @Test
    void anInfoOnlyLogIsNamed() {
        String log = "node01:1234:1234 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
                + "node01:1234:1234 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>\n"
                + "[1,3]<stdout>:node01:1234:1250 [0] NCCL INFO Channel 00/02 :    0   1\n";
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("train.log", log));
        assertEquals("train.log: no nccl-tests table, reduced table, summary or 'Avg bus bandwidth' line found (the"
                + " file holds NCCL_DEBUG=INFO lines, which say how NCCL set up, not how long a call took: add the"
                + " nccl-tests output the run printed with them); expected nccl-tests output (a '#  size  count  type"
                + " ...' header followed by rows)", e.problems().get(0).toString());
    }

    @Test
    void otherTextKeepsTheShortMessage() {
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("x.txt", "hello\n"));
        assertEquals("x.txt: no nccl-tests table, reduced table, summary or 'Avg bus bandwidth' line found; expected"
                + " nccl-tests output (a '#  size  count  type ...' header followed by rows)",
                e.problems().get(0).toString());
    }

    /** An empty file (a job whose output went elsewhere) and one of blank lines say what they are. */
    @Test
    void anEmptyFileSaysItIsEmpty() {
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("run.out", ""));
        assertEquals("run.out: no nccl-tests table, reduced table, summary or 'Avg bus bandwidth' line found (the"
                + " file is empty: 0 bytes; did the run print to another file, e.g. stderr or another rank's log?);"
                + " expected nccl-tests output (a '#  size  count  type ...' header followed by rows)",
                e.problems().get(0).toString());
        InputException blank = assertThrows(InputException.class, () -> MeasurementReader.read("b.txt", "\n \n"));
        assertEquals("b.txt: no nccl-tests table, reduced table, summary or 'Avg bus bandwidth' line found (the"
                + " file holds only blank lines; did the run print to another file, e.g. stderr or another rank's"
                + " log?); expected nccl-tests output (a '#  size  count  type ...' header followed by rows)",
                blank.problems().get(0).toString());
    }
}
