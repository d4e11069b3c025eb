package dev.collsim.topology.io.xml;

import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.io.InputProblem;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Parses an XML file with the JDK's StAX parser into {@link XmlNode}s that remember the line and column of every
 * element and attribute. Lines that start with {@code #} before the first {@code <} (the {@code #@} header lines
 * of collsim's data files) are blanked first, keeping line numbers. DTDs and external entities are refused, and so
 * is an element nested deeper than {@link InputLimits#maxXmlDepth()} (the readers walk the tree recursively).
 */
final class XmlTree {

    private XmlTree() {
    }

    /**
     * Strips the leading comment lines that start with {@code #}, keeping their line breaks.
     *
     * @param content file text
     * @return text with those lines blanked
     */
    static String stripHashHeader(String content) {
        StringBuilder out = new StringBuilder(content.length());
        int i = 0;
        boolean header = true;
        while (i < content.length()) {
            int nl = content.indexOf('\n', i);
            int end = nl < 0 ? content.length() : nl + 1;
            String line = content.substring(i, end);
            String t = line.strip();
            if (header && t.startsWith("#")) {
                out.append(nl < 0 ? "" : "\n");
            } else {
                header &= t.isEmpty();
                out.append(line);
            }
            i = end;
        }
        return out.toString();
    }

    /**
     * Parses a document.
     *
     * @param fileName name cited in problems
     * @param content  file text
     * @return the root element
     * @throws InputException when the text is not well-formed XML (truncated, two roots, bad syntax), naming the
     *                        line, column and the elements still open; or when elements nest deeper than the limit
     */
    static XmlNode parse(String fileName, String content) throws InputException {
        String text = stripHashHeader(content);
        LineIndex lines = new LineIndex(text);
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        Deque<XmlNode> open = new ArrayDeque<>();
        XmlNode root = null;
        XMLStreamReader r = null;
        try {
            r = f.createXMLStreamReader(new StringReader(text));
            while (r.hasNext()) {
                int ev = r.next();
                if (ev == XMLStreamConstants.START_ELEMENT) {
                    XmlNode node = element(r, text, lines);
                    String deep = InputLimits.xmlDepthProblem(open.size() + 1);
                    if (deep != null) {
                        throw new InputException(new InputProblem(fileName, node.line(), node.column(), node.name(),
                                deep));
                    }
                    if (open.isEmpty()) {
                        root = node;
                    } else {
                        open.peek().add(node);
                    }
                    open.push(node);
                } else if (ev == XMLStreamConstants.END_ELEMENT) {
                    open.pop();
                }
            }
        } catch (XMLStreamException e) {
            throw new InputException(problem(fileName, e, open, text, lines));
        } finally {
            close(r);
        }
        if (root == null) {
            throw new InputException(new InputProblem(fileName, 1, 1, "", "no XML element found; expected a root element"));
        }
        return root;
    }

    private static XmlNode element(XMLStreamReader r, String text, LineIndex lines) {
        String name = r.getLocalName();
        Location loc = r.getLocation();
        int end = lines.offset(loc.getLineNumber(), loc.getColumnNumber());
        int start = text.lastIndexOf("<" + name, Math.max(0, Math.min(end, text.length()) - 1));
        if (start < 0) {
            start = Math.max(0, end - 1);
        }
        XmlNode node = new XmlNode(name, lines.line(start), lines.column(start));
        String tag = text.substring(start, Math.max(start, Math.min(end, text.length())));
        for (int i = 0; i < r.getAttributeCount(); i++) {
            String key = r.getAttributeLocalName(i);
            Matcher m = Pattern.compile("\\s" + Pattern.quote(key) + "\\s*=").matcher(tag);
            int at = m.find() ? start + m.start() + 1 : start;
            node.attribute(key, r.getAttributeValue(i), lines.line(at), lines.column(at));
        }
        return node;
    }

    private static InputProblem problem(String file, XMLStreamException e, Deque<XmlNode> open, String text,
            LineIndex lines) {
        Location loc = e.getLocation();
        int line = loc == null ? lines.line(text.length()) : loc.getLineNumber();
        int column = loc == null ? lines.column(text.length()) : loc.getColumnNumber();
        String msg = e.getMessage() == null ? "" : e.getMessage();
        int cut = msg.indexOf("Message: ");
        String reason = cut >= 0 ? msg.substring(cut + 9).trim() : msg.trim();
        boolean atEnd = loc != null && lines.offset(line, column) >= text.stripTrailing().length();
        if (atEnd && !open.isEmpty()) {
            XmlNode innermost = open.peek();
            StringBuilder still = new StringBuilder();
            StringBuilder closing = new StringBuilder();
            for (XmlNode n : open) {
                still.append(still.length() == 0 ? "" : ", ").append('<').append(n.name()).append("> (")
                        .append(n.line()).append(':').append(n.column()).append(')');
                closing.append("</").append(n.name()).append('>');
            }
            return new InputProblem(file, line, column, innermost.name(),
                    "truncated XML: found the end of the file while these elements are open: " + still
                            + "; allowed: their closing tags " + closing + " before the end");
        }
        String where = open.isEmpty() ? "" : open.peek().name();
        return new InputProblem(file, line, column, where, "not well-formed XML: " + reason);
    }

    private static void close(XMLStreamReader r) {
        if (r != null) {
            try {
                r.close();
            } catch (XMLStreamException ignored) {
                // nothing to release for a string source
            }
        }
    }

    /** Maps character offsets to 1-based lines and columns and back. */
    private static final class LineIndex {
        private final int[] starts;
        private final int length;

        LineIndex(String text) {
            int n = 1;
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    n++;
                }
            }
            starts = new int[n];
            int k = 1;
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    starts[k++] = i + 1;
                }
            }
            length = text.length();
        }

        int offset(int line, int column) {
            int l = Math.max(1, Math.min(line, starts.length));
            return Math.min(length, starts[l - 1] + Math.max(0, column - 1));
        }

        int line(int offset) {
            int lo = 0;
            int hi = starts.length - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (starts[mid] <= offset) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            return lo + 1;
        }

        int column(int offset) {
            return offset - starts[line(offset) - 1] + 1;
        }
    }
}
