package dev.collsim.topology.io;

import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.io.xml.XmlNode;
import dev.collsim.io.yaml.YamlNode;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Collects the problems of one input file, so a reader can report all of them at once, sorted by line then column.
 * Used by the YAML, NCCL XML and nvidia-smi readers. Not thread-safe.
 */
public final class Problems {

    private final String file;
    private final List<InputProblem> list = new ArrayList<>();

    public Problems(String file) {
        this.file = file;
    }

    public String file() {
        return file;
    }

    /** Records a problem at a line and column (YAML reader's spelling of {@link #at(int, int, String, String)}). */
    public void add(int line, int column, String field, String message) {
        list.add(new InputProblem(file, line, column, field, message));
    }

    /** Records a problem at a YAML node (line and column 0 when the node is null). */
    public void add(YamlNode at, String field, String message) {
        add(at == null ? 0 : at.line(), at == null ? 0 : at.column(), field, message);
    }

    /** Records a problem found by a shared reader (e.g. a duplicate YAML key). */
    public void add(InputProblem problem) {
        list.add(problem);
    }

    public int size() {
        return list.size();
    }

    /** Records a problem with an attribute of an XML element (at the attribute, or the element when absent). */
    public void at(XmlNode node, String attr, String message) {
        list.add(new InputProblem(file, node.line(attr), node.column(attr), node.name() + "." + attr, message));
    }

    /** Records a problem with an XML element. */
    public void at(XmlNode node, String message) {
        list.add(new InputProblem(file, node.line(), node.column(), node.name(), message));
    }

    /** Records a problem at a line and column. */
    public void at(int line, int column, String field, String message) {
        list.add(new InputProblem(file, line, column, field, message));
    }

    /** What a reader's note starts with when it is a warning (printed on stderr and counted by the commands). */
    public static final String WARNING = "warning: ";

    /**
     * Hands the warnings among a reader's notes to the topology being built, each prefixed with the file name (as
     * {@code file:line:column: ...} when the warning starts with its line and column).
     *
     * @param file  the file as the user gave it
     * @param notes the reader's notes; those starting with {@link #WARNING} are warnings
     * @param b     the topology being built
     */
    public static void warnings(String file, List<String> notes, TopologyBuilder b) {
        notes.stream().filter(n -> n.startsWith(WARNING)).map(n -> n.substring(WARNING.length()))
                .forEach(n -> b.warning(file + (AT_LINE.matcher(n).lookingAt() ? ":" : ": ") + n));
    }

    /** A warning that starts with {@code line:column: } is joined to the file name as a problem is. */
    private static final Pattern AT_LINE = Pattern.compile("\\d+:\\d+: ");

    public boolean isEmpty() {
        return list.isEmpty();
    }

    /** @throws InputException when any problem was recorded, listing all of them in file order */
    public void throwIfAny() throws InputException {
        if (!list.isEmpty()) {
            List<InputProblem> sorted = new ArrayList<>(list);
            sorted.sort((a, b) -> a.line() != b.line() ? Integer.compare(a.line(), b.line())
                    : Integer.compare(a.column(), b.column()));
            throw new InputException(sorted);
        }
    }

    /**
     * Reads an integer attribute.
     *
     * @return the value, {@code absent} when the attribute is missing, or {@code absent} after recording a problem
     *         when it is not an integer in [min, max]
     */
    public int integer(XmlNode n, String attr, boolean required, int min, int max, int absent) {
        String v = n.attr(attr);
        if (v == null) {
            if (required) {
                at(n, attr, "missing; allowed: an integer in [" + min + ", " + max + "]");
            }
            return absent;
        }
        try {
            long x = v.trim().startsWith("0x") ? Long.parseLong(v.trim().substring(2), 16) : Long.parseLong(v.trim());
            if (x < min || x > max) {
                at(n, attr, "found '" + v + "'; allowed: an integer in [" + min + ", " + max + "]");
                return absent;
            }
            return (int) x;
        } catch (NumberFormatException e) {
            at(n, attr, "found '" + v + "'; allowed: an integer in [" + min + ", " + max + "]");
            return absent;
        }
    }

    /** Reads a decimal attribute, recording a problem when it is not a finite number >= min. */
    public double decimal(XmlNode n, String attr, boolean required, double min, double absent) {
        String v = n.attr(attr);
        if (v == null) {
            if (required) {
                at(n, attr, "missing; allowed: a number >= " + Decimals.plain(min));
            }
            return absent;
        }
        try {
            double x = Double.parseDouble(v.trim());
            if (!Double.isFinite(x) || x < min) {
                at(n, attr, "found '" + v + "'; allowed: a number >= " + Decimals.plain(min));
                return absent;
            }
            return x;
        } catch (NumberFormatException e) {
            at(n, attr, "found '" + v + "'; allowed: a number >= " + Decimals.plain(min));
            return absent;
        }
    }

    /** Reads a required text attribute, recording a problem when it is missing or blank. */
    public String text(XmlNode n, String attr, String allowed) {
        String v = n.attr(attr);
        if (v == null || v.isBlank()) {
            at(n, attr, (v == null ? "missing" : "found an empty value") + "; allowed: " + allowed);
            return null;
        }
        return v.trim();
    }
}
