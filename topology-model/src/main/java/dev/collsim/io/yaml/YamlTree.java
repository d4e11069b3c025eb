package dev.collsim.io.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.io.InputProblem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one located-YAML reader of collsim (cluster specs and what-if report specs): reads YAML text into
 * {@link YamlNode}s that keep each value's line and column, with Jackson's YAML streaming parser (Jackson's
 * {@code JsonNode} trees drop locations). Syntax errors come from Jackson, which stops at the first one; duplicate
 * keys are reported to the caller's problem list and reading goes on (the later value wins). Stateless.
 */
public final class YamlTree {

    /** Where SnakeYAML says a mark is: {@code  in 'reader', line 4, column 8:}. */
    private static final Pattern MARK = Pattern.compile("line (\\d+), column (\\d+)");

    private static final YAMLFactory FACTORY = new YAMLFactory();

    private final String file;
    private final Consumer<InputProblem> problems;

    private YamlTree(String file, Consumer<InputProblem> problems) {
        this.file = file;
        this.problems = problems;
    }

    /**
     * SnakeYAML's message in one line: its context and problem sentences (lines starting in column 1), with where
     * the context began, e.g. {@code while parsing a flow sequence (from 4:8); expected ',' or ']', but got ':'}.
     * The snippet and caret lines are left out (the problem's own line and column point there).
     */
    static String syntaxMessage(String original) {
        List<String> sentences = new ArrayList<>();
        String firstMark = null;
        String[] lines = original.split("\n");
        for (int k = 0; k < lines.length; k++) {
            String line = lines[k];
            if (line.isBlank() || Character.isWhitespace(line.charAt(0))) {
                continue;
            }
            sentences.add(line.strip());
            if (sentences.size() == 1 && k + 1 < lines.length) {
                Matcher m = MARK.matcher(lines[k + 1]);
                firstMark = m.find() ? m.group(1) + ":" + m.group(2) : null;
            }
        }
        if (sentences.isEmpty()) {
            return original.strip();
        }
        if (sentences.size() > 1 && firstMark != null) {
            sentences.set(0, sentences.get(0) + " (from " + firstMark + ")");
        }
        return String.join("; ", sentences);
    }

    /**
     * Where SnakeYAML found the problem: the last {@code line L, column C} mark of its message (1-based there; the
     * first mark, when there are two, is where the broken construct began). Jackson's own location is that of the
     * last token it read, which for a scanner error (a tab used for indentation) is the end of the line before.
     *
     * @return {line, column}, or null when the message has no mark
     */
    static int[] problemMark(String original) {
        Matcher m = MARK.matcher(original == null ? "" : original);
        int[] at = null;
        while (m.find()) {
            try {
                at = new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
            } catch (NumberFormatException e) {
                // a mark beyond an int cannot be a position in a file under InputLimits; keep the previous one
            }
        }
        return at;
    }

    /**
     * Parses a document.
     *
     * @param file     file name to cite in problems
     * @param content  the text
     * @param problems receives one problem per duplicate key (at the repeated key)
     * @return the root node; an empty mapping at 1:1 for an empty document
     * @throws InputException on a YAML syntax error: {@code file:line:col: not valid YAML: <Jackson's message>};
     *                        on a line longer than {@link InputLimits#maxLineChars()}, checked before parsing
     */
    public static YamlNode parse(String file, String content, Consumer<InputProblem> problems)
            throws InputException {
        InputLimits.checkYamlLines(file, content);
        try (JsonParser p = FACTORY.createParser(content)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return new YamlNode(YamlNode.Kind.MAP, "", 1, 1, 1, 1, null, null, null);
            }
            return new YamlTree(file, problems).read(p, t, "");
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            int[] at = problemMark(e.getOriginalMessage());
            if (at == null) {
                at = l == null ? new int[] {0, 0} : new int[] {l.getLineNr(), l.getColumnNr()};
            }
            throw new InputException(new InputProblem(file, at[0], at[1], "", "not valid YAML: "
                    + syntaxMessage(e.getOriginalMessage())));
        } catch (IOException e) {
            throw new IllegalStateException("reading a string cannot fail", e);
        }
    }

    private YamlNode read(JsonParser p, JsonToken t, String path) throws IOException {
        JsonLocation loc = p.currentTokenLocation();
        int line = loc.getLineNr();
        int col = loc.getColumnNr();
        switch (t) {
            case START_OBJECT: {
                Map<String, YamlNode> fields = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    JsonLocation kl = p.currentTokenLocation();
                    String child = path.isEmpty() ? key : path + "." + key;
                    YamlNode value = read(p, p.nextToken(), child).atKey(kl.getLineNr(), kl.getColumnNr());
                    YamlNode first = fields.get(key);
                    if (first != null) {
                        problems.accept(new InputProblem(file, kl.getLineNr(), kl.getColumnNr(), child,
                                "duplicate key '" + key + "' (first at line " + first.keyLine()
                                        + "); each key may appear once"));
                    }
                    fields.put(key, value);
                }
                return new YamlNode(YamlNode.Kind.MAP, path, line, col, line, col, null, fields, null);
            }
            case START_ARRAY: {
                List<YamlNode> items = new ArrayList<>();
                int i = 0;
                for (JsonToken it = p.nextToken(); it != JsonToken.END_ARRAY; it = p.nextToken()) {
                    items.add(read(p, it, path + "[" + i++ + "]"));
                }
                return new YamlNode(YamlNode.Kind.LIST, path, line, col, line, col, null, null, items);
            }
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return scalar(YamlNode.Kind.NUMBER, path, line, col, p.getText());
            case VALUE_TRUE:
            case VALUE_FALSE:
                return scalar(YamlNode.Kind.BOOLEAN, path, line, col, p.getText());
            case VALUE_NULL:
                return scalar(YamlNode.Kind.NULL, path, line, col, null);
            default:
                return scalar(YamlNode.Kind.STRING, path, line, col, p.getText());
        }
    }

    private static YamlNode scalar(YamlNode.Kind kind, String path, int line, int col, String text) {
        return new YamlNode(kind, path, line, col, line, col, text, null, null);
    }
}
