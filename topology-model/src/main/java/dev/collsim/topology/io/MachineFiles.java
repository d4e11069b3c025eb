package dev.collsim.topology.io;

import dev.collsim.topology.io.smi.NvidiaSmiTopoReader;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;

import dev.collsim.io.TopologyReader;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Detects, by content, whether a text describes a real machine in one of the formats this package reads: NCCL
 * topology XML (first element {@code <system}) or {@code nvidia-smi topo -m} text (a header line starting with
 * {@code GPU0} that carries {@code CPU Affinity}, or is followed by a {@code GPU0 X} row). A cluster loader calls
 * {@link #detect} before trying its own formats. This class is stateless and thread-safe.
 */
public final class MachineFiles {

    private MachineFiles() {
    }

    /**
     * The readers of this package, in detection order.
     *
     * @param hints GPU/NIC/CPU facts the files may lack
     * @return an NCCL topology XML reader and an nvidia-smi reader
     */
    public static List<TopologyReader> readers(HardwareHints hints) {
        Objects.requireNonNull(hints, "hints");
        return List.of(new NcclTopoXmlReader(hints), new NvidiaSmiTopoReader(hints));
    }

    /**
     * Finds the reader for a text.
     *
     * @param content the file's text
     * @param hints   GPU/NIC/CPU facts the file may lack
     * @return the reader whose {@link TopologyReader#accepts} is true, or empty when none is
     */
    public static Optional<TopologyReader> detect(String content, HardwareHints hints) {
        return readers(hints).stream().filter(r -> r.accepts(content)).findFirst();
    }
}
