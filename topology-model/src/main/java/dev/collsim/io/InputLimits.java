package dev.collsim.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Limits on input files that protect memory and time, checked before any parsing starts, with a message that names
 * the limit and the environment variable that moves it:
 * <ul>
 *   <li>file size: {@value #DEFAULT_MAX_FILE_BYTES} bytes (512 MiB) by default, {@code COLLSIM_MAX_FILE_BYTES};
 *       a file is read whole into memory as text, so the JVM needs about twice its size in heap;</li>
 *   <li>YAML line length: {@value #DEFAULT_MAX_LINE_CHARS} characters by default, {@code COLLSIM_MAX_LINE_CHARS}.
 *       The YAML parser's time and memory grow fast with one long line (measured with {@code collsim compare
 *       --calibration} on a profile holding one long line: 65,536 characters 2.7 s and 79 MB resident in all,
 *       1,048,576 characters 9.5 s and 624 MB, 4,000,000 characters 16 s and 842 MB), and no YAML file collsim
 *       reads or writes has a line of more than a few hundred characters;</li>
 *   <li>XML nesting depth: {@value #DEFAULT_MAX_XML_DEPTH} elements by default, {@code COLLSIM_MAX_XML_DEPTH}. An
 *       NCCL topology file nests system, cpu, a few PCIe switches, pci, gpu/nic/net: under 16 levels on the machines
 *       in the public data; 5,000 levels overflowed the stack of the readers that walk the tree.</li>
 * </ul>
 * Stateless; the limits are read from the environment at each call.
 */
public final class InputLimits {

    /** Bytes per input file allowed when {@code COLLSIM_MAX_FILE_BYTES} is not set (512 MiB). */
    public static final long DEFAULT_MAX_FILE_BYTES = 512L * 1024 * 1024;

    /** Characters per YAML line allowed when {@code COLLSIM_MAX_LINE_CHARS} is not set. */
    public static final int DEFAULT_MAX_LINE_CHARS = 65_536;

    /** XML elements open at once allowed when {@code COLLSIM_MAX_XML_DEPTH} is not set. */
    public static final int DEFAULT_MAX_XML_DEPTH = 256;

    /** Environment variable that overrides {@link #DEFAULT_MAX_FILE_BYTES}. */
    public static final String MAX_FILE_BYTES_VARIABLE = "COLLSIM_MAX_FILE_BYTES";

    /** Environment variable that overrides {@link #DEFAULT_MAX_LINE_CHARS}. */
    public static final String MAX_LINE_CHARS_VARIABLE = "COLLSIM_MAX_LINE_CHARS";

    /** Environment variable that overrides {@link #DEFAULT_MAX_XML_DEPTH}. */
    public static final String MAX_XML_DEPTH_VARIABLE = "COLLSIM_MAX_XML_DEPTH";

    private InputLimits() {
    }

    /** @return the file size limit in force, bytes */
    public static long maxFileBytes() {
        return setting(MAX_FILE_BYTES_VARIABLE, DEFAULT_MAX_FILE_BYTES);
    }

    /** @return the YAML line length limit in force, characters */
    public static int maxLineChars() {
        return (int) Math.min(Integer.MAX_VALUE, setting(MAX_LINE_CHARS_VARIABLE, DEFAULT_MAX_LINE_CHARS));
    }

    /** @return the XML nesting depth limit in force, elements */
    public static int maxXmlDepth() {
        return (int) Math.min(Integer.MAX_VALUE, setting(MAX_XML_DEPTH_VARIABLE, DEFAULT_MAX_XML_DEPTH));
    }

    /**
     * Reads a text file as UTF-8 after checking its size against {@link #maxFileBytes()}.
     *
     * @param file the file
     * @param name the file as the user gave it, cited in problems
     * @return the text
     * @throws InputException when the file is larger than the limit (found, allowed, how to go past) or cannot be
     *                        read (no such file, permission denied, ...)
     */
    public static String readText(Path file, String name) throws InputException {
        try {
            long size = Files.size(file);
            long max = maxFileBytes();
            if (size > max) {
                throw new InputException(new InputProblem(name, 0, 0, "", "file of " + size + " bytes; allowed: at most "
                        + max + " bytes (a limit that protects memory: the file is read whole; set "
                        + MAX_FILE_BYTES_VARIABLE + "=N to go past it)"));
            }
            return utf8(Files.readAllBytes(file), name);
        } catch (IOException e) {
            throw new InputException(new InputProblem(name, 0, 0, "", IoMessages.reason(e)));
        }
    }

    /**
     * Decodes a file's bytes as UTF-8 (ASCII is a subset), refusing bytes that are not UTF-8 text with their place
     * instead of the JDK's bare "Input length = 1". A byte order mark (Unicode 15.0 section 23.8) is read as Windows
     * tools write it, not as text: UTF-8's (EF BB BF: Notepad's "UTF-8 with BOM", PowerShell 5.1's {@code Out-File
     * -Encoding utf8}) is dropped, so a first line such as nccl-tests' {@code # nccl-tests version} or {@code schema:}
     * still starts with its own first character; UTF-16's (FF FE little-endian: PowerShell 5.1's {@code >} and
     * {@code Out-File} default; FE FF big-endian) decodes the rest as UTF-16.
     *
     * @param bytes the file's bytes
     * @param name  the file as the user gave it
     * @return the text, without its byte order mark
     * @throws InputException at the first byte that is not part of UTF-8 text (or of UTF-16 text after UTF-16's byte
     *                        order mark): its line, column (in bytes) and byte offset from the start of the file
     *                        (0-based), and the byte's value
     */
    public static String utf8(byte[] bytes, String name) throws InputException {
        int bom = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB
                && (bytes[2] & 0xFF) == 0xBF ? 3 : 0;
        boolean utf16le = bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE;
        boolean utf16be = bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF;
        bom = utf16le || utf16be ? 2 : bom;
        CharsetDecoder d = (utf16le ? StandardCharsets.UTF_16LE : utf16be ? StandardCharsets.UTF_16BE
                : StandardCharsets.UTF_8).newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, bom, bytes.length - bom);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = d.decode(in, out, true);
        if (!r.isError()) {
            r = d.flush(out);
        }
        if (r.isError()) {
            int at = in.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            String code = utf16le || utf16be ? "UTF-16" : "UTF-8";
            throw new InputException(new InputProblem(name, line, at - lineStart + 1, "", String.format(Locale.ROOT,
                    "not %s text: byte 0x%02X at byte offset %d cannot start or continue a %s character%s;"
                            + " allowed: a text file (UTF-8 or ASCII, or UTF-16 after its byte order mark), e.g."
                            + " nccl-tests output, YAML, NCCL XML, nvidia-smi topo -m", code, bytes[at] & 0xFF, at,
                    code, compressed(bytes))));
        }
        return out.flip().toString();
    }

    /**
     * A compressed file, by its first bytes: gzip's 1F 8B (RFC 1952 section 2.3.1, ID1 ID2), zip's 50 4B 03 04
     * (PKWARE APPNOTE.TXT 6.3.10 section 4.3.7, the local file header signature) and Zstandard's 28 B5 2F FD (RFC 8878
     * section 3.1.1, the magic number 0xFD2FB528 little-endian): a log saved as {@code .gz} is a common mistake.
     *
     * @return {@code " (the file is gzip-compressed: decompress it first, e.g. gunzip -k FILE)"} and the like, or
     *         {@code ""} for any other bytes
     */
    private static String compressed(byte[] bytes) {
        String kind = starts(bytes, 0x1F, 0x8B) ? "gzip" : starts(bytes, 0x50, 0x4B, 0x03, 0x04) ? "zip"
                : starts(bytes, 0x28, 0xB5, 0x2F, 0xFD) ? "zstd" : "";
        String tool = "gzip".equals(kind) ? "gunzip -k" : "zip".equals(kind) ? "unzip" : "unzstd";
        return kind.isEmpty() ? "" : " (the file is " + kind + "-compressed: decompress it first, e.g. " + tool
                + " FILE)";
    }

    private static boolean starts(byte[] bytes, int... magic) {
        if (bytes.length < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if ((bytes[i] & 0xFF) != magic[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks that no line of a YAML text is longer than {@link #maxLineChars()}; linear in the text's length.
     *
     * @param name    the file as the user gave it
     * @param content the text
     * @throws InputException at the first line that is too long, at the column just past the limit
     */
    public static void checkYamlLines(String name, String content) throws InputException {
        int max = maxLineChars();
        int line = 1;
        int start = 0;
        int n = content.length();
        for (int i = 0; i <= n; i++) {
            if (i == n || content.charAt(i) == '\n') {
                if (i - start > max) {
                    throw new InputException(new InputProblem(name, line, max + 1, "", "line of " + (i - start)
                            + " characters; allowed: at most " + max + " per line in a YAML file (a limit that "
                            + "protects time and memory; set " + MAX_LINE_CHARS_VARIABLE + "=N to go past it)"));
                }
                line++;
                start = i + 1;
            }
        }
    }

    /**
     * @param depth the number of XML elements open, counting the one just opened
     * @return null when within {@link #maxXmlDepth()}, else the message (found, allowed, how to go past)
     */
    public static String xmlDepthProblem(int depth) {
        int max = maxXmlDepth();
        if (depth <= max) {
            return null;
        }
        return "element nested " + depth + " deep; allowed: at most " + max + " nested elements (a limit that "
                + "protects the stack; set " + MAX_XML_DEPTH_VARIABLE + "=N to go past it)";
    }

    private static long setting(String variable, long fallback) {
        String v = System.getenv(variable);
        if (v != null && v.strip().matches("[1-9][0-9]{0,17}")) {
            return Long.parseLong(v.strip());
        }
        return fallback;
    }
}
