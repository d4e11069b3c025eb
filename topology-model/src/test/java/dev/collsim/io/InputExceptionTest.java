package dev.collsim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The closing summary of an InputException names every file with problems, not only the first. */
class InputExceptionTest {

    @Test
    void oneFileIsNamedOnce() {
        InputException e = new InputException(List.of(new InputProblem("a.txt", 3, 1, "", "bad"),
                new InputProblem("a.txt", 5, 2, "x", "worse")));
        assertEquals("a.txt:3:1: bad\na.txt:5:2: x: worse\n2 problems in a.txt", e.getMessage());
    }

    /** Was "3 problems in a.txt" for problems in two files (fuzzing with compare -m a.txt -m b.txt). */
    @Test
    void severalFilesAreAllNamedWithTheirCounts() {
        InputException e = new InputException(List.of(new InputProblem("a.txt", 3, 1, "", "bad"),
                new InputProblem("dir/b.txt", 1, 1, "", "bad"), new InputProblem("a.txt", 9, 1, "", "bad")));
        assertEquals("a.txt:3:1: bad\ndir/b.txt:1:1: bad\na.txt:9:1: bad\n3 problems: 2 in a.txt, 1 in dir/b.txt",
                e.getMessage());
    }

    /**
     * One fault seen from many places (an nvidia-smi matrix label contradicting the others, on each GPU pair): the
     * first 3 of a message are printed, then one line for the rest with their lines; another message keeps its own
     * lines; the count stays that of every problem. 6 alike at lines 2..7: 3 shown, "3 more" at lines 5-7.
     */
    @Test
    void repeatsOfOneKindAreGroupedAfterTheFirstThree() {
        List<InputProblem> ps = new ArrayList<>();
        for (int line = 2; line <= 7; line++) {
            ps.add(new InputProblem("m.txt", line, 9, "GPU" + line + "/GPU0", "found 'SYS'; allowed here: PIX"));
            if (line == 3) {
                ps.add(new InputProblem("m.txt", 3, 40, "GPU3/NIC0", "found 'SYS'; allowed here: PHB"));
            }
        }
        assertEquals("m.txt:2:9: GPU2/GPU0: found 'SYS'; allowed here: PIX\n"
                + "m.txt:3:9: GPU3/GPU0: found 'SYS'; allowed here: PIX\n"
                + "m.txt:3:40: GPU3/NIC0: found 'SYS'; allowed here: PHB\n"
                + "m.txt:4:9: GPU4/GPU0: found 'SYS'; allowed here: PIX\n"
                + "  ... and 3 more of the same kind (lines 5-7)\n"
                + "7 problems in m.txt", new InputException(ps).getMessage());
        // 4 alike: all printed (a group line never stands for a single problem)
        assertEquals(4, InputException.lines(ps.subList(0, 5)).stream().filter(l -> l.contains("PIX")).count());
        assertEquals(0, InputException.lines(ps.subList(0, 5)).stream().filter(l -> l.contains("more")).count());
    }
}
