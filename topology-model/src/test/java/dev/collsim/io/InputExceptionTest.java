package dev.collsim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
