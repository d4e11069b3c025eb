package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The prefix shapes {@link LearnedPrefix} learns from nccl-tests' own comment lines. Prefix formats: Open MPI v4.1
 * {@code orte/mca/iof/base/iof_base_output.c} ({@code ctime()} then {@code "[job,rank]<stdout>:"}), kubectl's
 * {@code --prefix} ({@code "[pod/NAME/CONTAINER] "}), pdsh ({@code "host: "}).
 */
class LearnedPrefixTest {

    /** Two ctime() stamps of different days and ranks, and stdout/stderr, have one shape. */
    @Test
    void shapeLetsDigitsWordsAndSpacesVary() {
        Pattern p = Pattern.compile(LearnedPrefix.shape("Sun Dec  6 12:48:27 2026[1,0]<stdout>:"));
        assertTrue(p.matcher("Mon Dec 14 09:01:02 2026[1,12]<stderr>:").matches());
        assertFalse(p.matcher("[1,0]<stdout>:").matches(), "the time stamp is part of the shape");
        Pattern k = Pattern.compile(LearnedPrefix.shape("[pod/nccl-launcher-x7k2p/mpi] "));
        assertTrue(k.matcher("[pod/nccl-worker-1/mpi] ").matches());
        assertFalse(k.matcher("[pod/nccl-worker-1/mpi]   ").matches(), "spaces after the prefix are the line's own");
    }

    /** Learned from two anchor lines; removed only at a line's start; a data row's own text is kept. */
    @Test
    void learnedFromAnchorsAndStrippedAtTheStart() {
        String[] lines = {"nodeA: # nThread 1 nGpus 1 minBytes 8 maxBytes 64", "nodeA: #  Rank  0 Group  0 Pid 1 on "
                + "nodeA device  0 [0x1b] NVIDIA H100 80GB HBM3", "nodeB:       8   2   float   sum   -1   16.03"};
        LearnedPrefix p = LearnedPrefix.of(lines);
        assertTrue(p.learned());
        assertEquals("# nThread 1 nGpus 1 minBytes 8 maxBytes 64", p.strip(lines[0]));
        assertEquals("      8   2   float   sum   -1   16.03", p.strip(lines[2]));
        assertEquals("nodeA:1:1 [0] NCCL INFO Bootstrap", p.strip("nodeA:1:1 [0] NCCL INFO Bootstrap"),
                "NCCL's HOST:PID:TID has no space after its colon: not the prefix");
    }

    /** A file whose comment lines start with '#', or with a known prefix, or with one stray prefix, learns nothing. */
    @Test
    void nothingLearnedWithoutTwoForeignAnchors() {
        assertFalse(LearnedPrefix.of(new String[] {"# nThread 1 nGpus 1", "#  Rank  0 Group  0 Pid 1 on a device 0"})
                .learned());
        assertFalse(LearnedPrefix.of(new String[] {"[1,0]<stdout>:# nThread 1 nGpus 1",
            "[1,0]<stdout>:# Avg bus bandwidth : 1.0"}).learned(), "mpirun --tag-output is known to LinePrefixes");
        assertFalse(LearnedPrefix.of(new String[] {"see below: # Avg bus bandwidth : 1.0", "# nThread 1"}).learned());
    }

    /** ANSI colour codes (ESC [ 0 m, ESC [ 1 ; 32 m) are removed with or without a learned prefix. */
    @Test
    void colourCodesAreRemoved() {
        LearnedPrefix none = LearnedPrefix.of(new String[0]);
        assertEquals("# Avg bus bandwidth : 1.0", none.strip("\u001B[1;32m# Avg bus bandwidth : 1.0\u001B[0m"));
    }
}
