package dev.collsim.io;

import dev.collsim.topology.Topology;

/**
 * Reads one description format into a {@link Topology}. Every reader reports all problems it finds at once.
 */
public interface TopologyReader {

    /** @return the format name, e.g. {@code yaml}, {@code nvidia-smi}, {@code nccl-xml} */
    String format();

    /**
     * @param content the text of the file
     * @return true if the content looks like this format (used to detect the format by content)
     */
    boolean accepts(String content);

    /**
     * Reads a description.
     *
     * @param fileName name to cite in problems (as the user gave it)
     * @param content  the file's text
     * @return the topology
     * @throws InputException listing every problem with file, line, column and field
     */
    Topology read(String fileName, String content) throws InputException;
}
