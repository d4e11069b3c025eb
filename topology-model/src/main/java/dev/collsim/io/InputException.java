package dev.collsim.io;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A user's input file could not be used: carries every problem found, so all can be reported at once.
 * The CLI prints them without a stack trace and exits with code 3 ({@link UserInputException#INPUT}).
 * Unchecked, as every {@link UserInputException}; readers still declare it in their {@code throws} clauses.
 */
public final class InputException extends UserInputException {

    private static final long serialVersionUID = 1L;

    /** The problems, in file order. */
    private final transient List<InputProblem> problems;

    /**
     * @param problems at least one problem
     * @throws IllegalArgumentException when the list is empty
     */
    public InputException(List<InputProblem> problems) {
        super(render(problems), INPUT);
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an InputException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** Convenience for a single problem. */
    public InputException(InputProblem problem) {
        this(List.of(problem));
    }

    /** @return the problems, in file order */
    public List<InputProblem> problems() {
        return problems;
    }

    /**
     * Every problem, one a line, then a closing summary naming every file in first-seen order:
     * {@code 2 problems in a.txt} for one file, {@code 3 problems: 2 in a.txt, 1 in b.txt} for several.
     */
    private static String render(List<InputProblem> problems) {
        StringBuilder sb = new StringBuilder();
        Map<String, Integer> perFile = new LinkedHashMap<>();
        for (InputProblem p : problems) {
            sb.append(p).append('\n');
            perFile.merge(p.file(), 1, Integer::sum);
        }
        sb.append(problems.size()).append(problems.size() == 1 ? " problem" : " problems");
        if (perFile.size() <= 1) {
            return sb.append(" in ").append(perFile.isEmpty() ? "input" : perFile.keySet().iterator().next()).toString();
        }
        String sep = ": ";
        for (Map.Entry<String, Integer> e : perFile.entrySet()) {
            sb.append(sep).append(e.getValue()).append(" in ").append(e.getKey());
            sep = ", ";
        }
        return sb.toString();
    }
}
