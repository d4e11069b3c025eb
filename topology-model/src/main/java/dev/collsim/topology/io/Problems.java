package dev.collsim.topology.io;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects the problems of one input file, in file order. Not thread-safe. */
final class Problems {

    private final String file;
    private final List<InputProblem> list = new ArrayList<>();

    Problems(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    void add(int line, int column, String field, String message) {
        list.add(new InputProblem(file, line, column, field, message));
    }

    void add(YamlNode at, String field, String message) {
        add(at == null ? 0 : at.line, at == null ? 0 : at.column, field, message);
    }

    boolean isEmpty() {
        return list.isEmpty();
    }

    int size() {
        return list.size();
    }

    /** @throws InputException listing every problem, sorted by line then column, if there is any */
    void throwIfAny() throws InputException {
        if (!list.isEmpty()) {
            List<InputProblem> sorted = new ArrayList<>(list);
            sorted.sort(Comparator.comparingInt(InputProblem::line).thenComparingInt(InputProblem::column));
            throw new InputException(sorted);
        }
    }
}
