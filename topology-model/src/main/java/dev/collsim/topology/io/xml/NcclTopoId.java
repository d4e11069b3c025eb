package dev.collsim.topology.io.xml;

import dev.collsim.topology.io.Problems;
import dev.collsim.topology.io.xml.NcclGraphDump.Step;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code dev} of a {@code <gpu>} or {@code <net>} in an NCCL graph file, read as NCCL reads it. NCCL 2.21 and
 * later (to 2.28.9 {@code src/graph/search.cc ncclTopoGetChannelFromXml}) reads it with {@code strtol(str, NULL,
 * 16)}: hex with or without {@code 0x}, so {@code dev="10"} is device 16; it writes it with {@code "%#lx"}
 * ({@code xmlSetAttrLong}, {@code src/graph/xml.h}): {@code 0}, {@code 0x1}, ... {@code 0xa}. The value is NCCL's
 * topology id {@code NCCL_TOPO_ID(systemId, dev)} ({@code src/graph/topo.h}: {@code ((int64_t)systemId << 56) +
 * dev}), the system id non-zero only where NCCL's node spans several hosts of a multi-node NVLink system. Accepted:
 * what NCCL's {@code strtol} reads as a non-negative {@code long} (system id 0 .. 127; beyond, NCCL's own dump of a
 * system id from 128 reads back clamped to {@code LONG_MAX}), with a device index 0 .. 575 ({@code
 * NCCL_TOPO_MAX_NODES}, 576 nodes of each type in NCCL's system, {@code src/include/graph.h}). Stricter than NCCL,
 * which stops at the first non-hex character: text that is not a whole hex number is refused. NCCL up to 2.20 read
 * and wrote it in decimal ({@code xmlGetAttrInt}); such a file's {@code dev="10"} means 16 to NCCL 2.21+ and here.
 */
final class NcclTopoId {

    /** {@code NCCL_TOPO_MAX_NODES} (2.28.9 {@code src/include/graph.h}): nodes of one type in NCCL's system. */
    static final int MAX_NODES = 576;
    /** Bits below the system id ({@code NCCL_TOPO_ID_SYSTEM_ID(id)}: {@code id >> 56}). */
    static final int SYSTEM_SHIFT = 56;

    private static final Pattern HEX = Pattern.compile("\\s*\\+?(?:0[xX])?([0-9a-fA-F]+)\\s*");
    private static final String ALLOWED = "allowed: NCCL's topology id in hex as NCCL's strtol(dev, NULL, 16) reads"
            + " it, with or without 0x (\"10\" is 16): a device index 0..0x23f (575), plus a system id 0..0x7f in"
            + " bits 56 and up";

    private NcclTopoId() {
    }

    /**
     * @param d        a {@code gpu} or {@code net} element
     * @param problems where a bad or missing {@code dev} is reported (file, line, column, element.dev, found,
     *                 allowed)
     * @return the step, or null after a problem
     */
    static Step step(XmlNode d, Problems problems) {
        String v = d.attr("dev");
        if (v == null) {
            problems.at(d, "dev", "missing; " + ALLOWED);
            return null;
        }
        Matcher m = HEX.matcher(v);
        String digits = m.matches() ? m.group(1).replaceFirst("^0+(?=.)", "") : null;
        if (digits == null || digits.length() > 16 || Long.parseUnsignedLong(digits, 16) < 0) {
            problems.at(d, "dev", "found '" + v + "'; " + ALLOWED);
            return null;
        }
        long id = Long.parseLong(digits, 16);
        long dev = id & ((1L << SYSTEM_SHIFT) - 1);
        if (dev >= MAX_NODES) {
            problems.at(d, "dev", "found '" + v + "' (device index " + dev + "); " + ALLOWED);
            return null;
        }
        return new Step(d.name().equals("net"), (int) (id >>> SYSTEM_SHIFT), (int) dev);
    }
}
