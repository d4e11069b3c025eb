package dev.collsim.validation.ingest;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Picks the NCCL settings that apply to one run out of a header's {@code env} text, which may list several runs
 * ({@code run1: NCCL_IB_DISABLE=1 ...; run2: ...} or {@code (a2) X=1 ; (b2) Y=2}), and the part of any other
 * multi-run header text that applies to one run ({@link #textForRun}). A segment labelled with a letter alone
 * ({@code (a) 2.26.5 ...; (b) unknown}) applies to the runs the file names with that letter and a number
 * ({@code (a1)}, {@code (a2)}).
 */
public final class RunEnv {

    private static final Pattern SETTING = Pattern.compile("\\b((?:NCCL|UCX|FI|CUDA|NVSHMEM|SHARP)_[A-Z0-9_]+)=([^\\s;)]+)");
    private static final Pattern LABEL = Pattern.compile(
            "^\\s*(?:(runs?\\s*\\d+(?:\\s*/\\s*(?:run\\s*)?\\d+)*)|\\(([a-z]\\d?)\\))\\s*:?", Pattern.CASE_INSENSITIVE);
    private static final Pattern TITLE_RUN = Pattern.compile("\\brun\\s*(\\d+)|\\(([a-z]\\d)\\)", Pattern.CASE_INSENSITIVE);

    private RunEnv() {
    }

    /**
     * @param headerEnv the header's env text
     * @param title     the run's section title (may be empty)
     * @return settings from unlabelled segments, the segment labelled like the title, and the title itself
     */
    public static Map<String, String> forRun(String headerEnv, String title) {
        Map<String, String> env = new LinkedHashMap<>();
        String runKey = runKey(title);
        for (String seg : headerEnv.split(";")) {
            Matcher l = LABEL.matcher(seg);
            if (l.find()) {
                String labels = (l.group(1) != null ? l.group(1) : l.group(2)).toLowerCase(Locale.ROOT);
                if (runKey == null || !matches(labels, runKey)) {
                    continue;
                }
            }
            collect(seg, env);
        }
        collect(title, env);
        return env;
    }

    /**
     * The part of a multi-run header text that applies to one run: unlabelled segments plus the segment whose
     * label ({@code run2:}, {@code (b2)}) matches the run's title.
     *
     * @param text  header text, segments separated by ';'
     * @param title the run's section title
     * @return the applicable text
     */
    public static String textForRun(String text, String title) {
        StringBuilder sb = new StringBuilder();
        String runKey = runKey(title);
        for (String seg : (text == null ? "" : text).split(";")) {
            Matcher l = LABEL.matcher(seg);
            if (l.find()) {
                String labels = (l.group(1) != null ? l.group(1) : l.group(2)).toLowerCase(Locale.ROOT);
                if (runKey == null || !matches(labels, runKey)) {
                    continue;
                }
            }
            sb.append(seg).append(';');
        }
        return sb.toString();
    }

    /**
     * What a multi-run header text states for one run: the segments labelled for it ({@code (b) unknown (NGC
     * TensorFlow container)}, {@code run 1 not printed (the Dockerfile names v2.12.7-1 ...)}) without their remarks in
     * parentheses, which name sources, containers and other runs rather than the run's own value; a text with no
     * segment labelled for the run gives {@link #textForRun} (its unlabelled segments, remarks kept).
     *
     * @param text  header text, segments separated by ';'
     * @param title the run's section title
     * @return the run's own statement
     */
    public static String statementForRun(String text, String title) {
        String runKey = runKey(title);
        StringBuilder own = new StringBuilder();
        for (String seg : (text == null ? "" : text).split(";")) {
            Matcher l = LABEL.matcher(seg);
            if (runKey != null && l.find() && matches((l.group(1) != null ? l.group(1) : l.group(2))
                    .toLowerCase(Locale.ROOT), runKey)) {
                own.append(withoutRemarks(seg)).append(';');
            }
        }
        return own.length() > 0 ? own.toString() : textForRun(text, title);
    }

    /** @return the text without its parenthesized remarks, nested ones and one left open by a ';' split included */
    private static String withoutRemarks(String seg) {
        String t = seg;
        for (String prev = ""; !t.equals(prev); ) {
            prev = t;
            t = t.replaceAll("\\([^()]*\\)", " ");
        }
        return t.replaceAll("\\([^()]*$", " ");
    }

    private static boolean matches(String labels, String runKey) {
        if (labels.length() <= 2 && Character.isLetter(labels.charAt(0))) {
            return labels.length() == 1 ? runKey.length() == 2 && runKey.charAt(0) == labels.charAt(0)
                    : labels.equals(runKey);
        }
        for (String n : labels.replaceAll("[^0-9/]", "").split("/")) {
            if (n.equals(runKey)) {
                return true;
            }
        }
        return false;
    }

    private static String runKey(String title) {
        Matcher m = TITLE_RUN.matcher(title == null ? "" : title);
        if (!m.find()) {
            return null;
        }
        return m.group(1) != null ? m.group(1) : m.group(2).toLowerCase(Locale.ROOT);
    }

    static void collect(String text, Map<String, String> env) {
        Matcher m = SETTING.matcher(text == null ? "" : text);
        while (m.find()) {
            env.put(m.group(1), m.group(2).replaceAll("[,.]+$", ""));
        }
    }
}
