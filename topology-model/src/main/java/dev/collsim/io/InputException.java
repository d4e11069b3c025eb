package dev.collsim.io;

import java.util.List;

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

    private static String render(List<InputProblem> problems) {
        StringBuilder sb = new StringBuilder();
        for (InputProblem p : problems) {
            sb.append(p).append('\n');
        }
        String file = problems.isEmpty() ? "input" : problems.get(0).file();
        sb.append(problems.size()).append(problems.size() == 1 ? " problem in " : " problems in ").append(file);
        return sb.toString();
    }
}
