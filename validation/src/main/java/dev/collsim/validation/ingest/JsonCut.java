package dev.collsim.validation.ingest;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Optional;

/**
 * Mends a JSON result file that ends in its middle (a job killed while nccl-tests {@code -J} or {@code collsim run}
 * was writing): it keeps the text up to the end of the last complete element of a {@code results} array (or the last
 * complete member of the top-level object or array), closes the brackets that are still open, and says where the
 * file stopped. The partial element is dropped, so every result read is one the run wrote whole. Stateless.
 */
final class JsonCut {

    private JsonCut() {
    }

    /**
     * The mended text and what was cut.
     *
     * @param json     the text up to the last complete element, with its open brackets closed
     * @param where    the path being written when the file stopped, e.g. {@code results[28].in_place}
     * @param line     1-based line of the file's last character
     * @param complete complete elements of the innermost {@code results} array kept before the cut
     */
    record Mended(String json, String where, int line, int complete) {
    }

    /** One open bracket: its kind, the key it is the value of (null in an array), elements closed so far. */
    private static final class Frame {
        final char open;
        final String key;
        int closed;

        Frame(char open, String key) {
            this.open = open;
            this.key = key;
        }
    }

    /**
     * @param text JSON text that ends before its last bracket closes
     * @return the mended text, empty when no complete result precedes the cut (nothing worth reading)
     */
    static Optional<Mended> mend(String text) {
        Deque<Frame> stack = new ArrayDeque<>();
        int cut = -1;
        String closers = "";
        int kept = 0;
        String lastString = null;
        String key = null;
        int line = 1;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '\n') {
                line++;
            } else if (ch == '"') {
                int end = stringEnd(text, i);
                if (end < 0) {
                    break;
                }
                lastString = text.substring(i + 1, end);
                i = end;
            } else if (ch == ':') {
                key = lastString;
            } else if (ch == '{' || ch == '[') {
                Frame top = stack.peek();
                stack.push(new Frame(ch, top != null && top.open == '{' ? key : null));
            } else if ((ch == '}' || ch == ']') && !stack.isEmpty()) {
                stack.pop();
                Frame top = stack.peek();
                if (top == null) {
                    return Optional.empty();
                }
                top.closed++;
                if (stack.size() == 1 || top.open == '[' && "results".equals(top.key)) {
                    cut = i + 1;
                    closers = closers(stack);
                    kept = "results".equals(top.key) ? top.closed : kept;
                }
            }
        }
        if (cut < 0 || kept == 0 || stack.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Mended(text.substring(0, cut) + closers, path(stack), line, kept));
    }

    /** @return the index of the quote that closes the string opening at start, -1 when the text ends first */
    private static int stringEnd(String text, int start) {
        for (int j = start + 1; j < text.length(); j++) {
            char c = text.charAt(j);
            if (c == '\\') {
                j++;
            } else if (c == '"') {
                return j;
            }
        }
        return -1;
    }

    private static String closers(Deque<Frame> stack) {
        StringBuilder b = new StringBuilder();
        for (Frame f : stack) {
            b.append(f.open == '{' ? '}' : ']');
        }
        return b.toString();
    }

    /** @return the open path, outermost first: {@code results[28].in_place}; empty at the top level */
    private static String path(Deque<Frame> stack) {
        StringBuilder b = new StringBuilder();
        Frame parent = null;
        for (Iterator<Frame> it = stack.descendingIterator(); it.hasNext();) {
            Frame f = it.next();
            if (parent != null && parent.open == '[') {
                b.append('[').append(parent.closed).append(']');
            } else if (f.key != null) {
                b.append(b.length() == 0 ? "" : ".").append(f.key);
            }
            parent = f;
        }
        if (parent != null && parent.open == '[') {
            b.append('[').append(parent.closed).append(']');
        }
        return b.toString();
    }
}
