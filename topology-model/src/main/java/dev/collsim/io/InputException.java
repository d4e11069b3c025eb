package dev.collsim.io;

import java.util.ArrayList;
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
    /** Problems of one kind printed before the rest are grouped ({@link #lines}). */
    private static final int SHOWN = 3;

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
     * Every problem, one a line (repeats grouped, {@link #lines}), then a closing summary naming every file in
     * first-seen order: {@code 2 problems in a.txt} for one file, {@code 3 problems: 2 in a.txt, 1 in b.txt} for
     * several. The count is of every problem, grouped or not.
     */
    private static String render(List<InputProblem> problems) {
        StringBuilder sb = new StringBuilder();
        Map<String, Integer> perFile = new LinkedHashMap<>();
        for (String line : lines(problems)) {
            sb.append(line).append('\n');
        }
        for (InputProblem p : problems) {
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

    /**
     * The problems as printed, one a line in their order, with repeats grouped: of problems of one file with the same
     * message (the same fault at other places, e.g. one wrong label of an {@code nvidia-smi topo -m} matrix seen
     * from every GPU pair), the first {@value #SHOWN} are printed and the rest as one line {@code   ... and N more of
     * the same kind (lines A-B)} after the last one shown; a kind of at most {@value #SHOWN} + 1 is printed in full,
     * so the grouping line always stands for at least 2. (collsim's choice: a screen of problems, not a wall.)
     *
     * @param problems the problems
     * @return the lines
     */
    public static List<String> lines(List<InputProblem> problems) {
        Map<List<String>, List<InputProblem>> kinds = new LinkedHashMap<>();
        for (InputProblem p : problems) {
            kinds.computeIfAbsent(List.of(p.file(), p.message()), k -> new ArrayList<>()).add(p);
        }
        List<String> out = new ArrayList<>();
        for (InputProblem p : problems) {
            List<InputProblem> same = kinds.get(List.of(p.file(), p.message()));
            int at = same.indexOf(p);
            if (same.size() <= SHOWN + 1 || at < SHOWN) {
                out.add(p.toString());
            }
            if (same.size() > SHOWN + 1 && at == SHOWN - 1) {
                List<InputProblem> rest = same.subList(SHOWN, same.size());
                int lo = rest.stream().mapToInt(InputProblem::line).min().orElse(0);
                int hi = rest.stream().mapToInt(InputProblem::line).max().orElse(0);
                out.add("  ... and " + rest.size() + " more of the same kind" + (lo <= 0 ? ""
                        : lo == hi ? " (line " + lo + ")" : " (lines " + lo + "-" + hi + ")"));
            }
        }
        return out;
    }
}
