package dev.collsim.validation.ingest;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Picks the NCCL settings that apply to one run out of a header's {@code env} text, which may list several runs
 * ({@code run1: NCCL_IB_DISABLE=1 ...; run2: ...} or {@code (a2) X=1 ; (b2) Y=2}).
 */
public final class RunEnv {

    private static final Pattern SETTING = Pattern.compile("\\b((?:NCCL|UCX|FI|CUDA|NVSHMEM|SHARP)_[A-Z0-9_]+)=([^\\s;)]+)");
    private static final Pattern LABEL = Pattern.compile(
            "^\\s*(?:(runs?\\s*\\d+(?:\\s*/\\s*(?:run\\s*)?\\d+)*)|\\(([a-z]\\d)\\))\\s*:?", Pattern.CASE_INSENSITIVE);
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

    private static boolean matches(String labels, String runKey) {
        if (labels.length() == 2 && Character.isLetter(labels.charAt(0))) {
            return labels.equals(runKey);
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
