package dev.collsim.topology.io.xml;

import dev.collsim.topology.io.Problems;

import dev.collsim.io.InputException;
import dev.collsim.topology.PathType;
import dev.collsim.topology.io.xml.NcclGraphDump.Channel;
import dev.collsim.topology.io.xml.NcclGraphDump.Graph;
import dev.collsim.topology.GraphPattern;
import dev.collsim.topology.io.xml.NcclGraphDump.Step;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads an NCCL graph XML file ({@code NCCL_GRAPH_DUMP_FILE} output, {@code NCCL_GRAPH_FILE} input):
 * {@code <graphs version><graph id pattern crossnic nchannels speedintra speedinter latencyinter typeintra
 * typeinter samechannels><channel><net dev/><gpu dev/>...</channel></graph></graphs>} (NCCL 2.30
 * {@code src/graph/search.cc}). Every bad attribute is reported with its line and column; a {@code nchannels} that
 * differs from the number of {@code channel} elements is a problem too. A {@code dev} is read as NCCL reads it, in
 * hex ({@link NcclTopoId}). This class is stateless and thread-safe.
 */
public final class NcclGraphXmlReader {

    private static final String TYPES = Arrays.toString(PathType.values());

    /** @return true when the first element of the text is {@code <graphs} */
    public boolean accepts(String content) {
        return NcclTopoXmlReader.firstElement(content).equals("graphs");
    }

    /**
     * Reads a graph file.
     *
     * @param fileName name cited in problems
     * @param content  the file's text
     * @return the graphs
     * @throws InputException listing every problem with file, line, column, element.attribute, found and allowed
     */
    public NcclGraphDump read(String fileName, String content) throws InputException {
        XmlNode root = XmlTree.parse(fileName, content);
        Problems problems = new Problems(fileName);
        if (!root.name().equals("graphs")) {
            problems.at(root, "found root element <" + root.name() + ">; allowed: <graphs version=\"1\">");
            problems.throwIfAny();
        }
        int version = problems.integer(root, "version", true, 1, 1, 1);
        List<Graph> graphs = new ArrayList<>();
        for (XmlNode g : root.children()) {
            if (!g.name().equals("graph")) {
                problems.at(g, "unexpected element <" + g.name() + "> in <graphs>; allowed: <graph>");
                continue;
            }
            Graph graph = graph(g, problems);
            if (graph != null) {
                graphs.add(graph);
            }
        }
        problems.throwIfAny();
        return new NcclGraphDump(version, graphs);
    }

    private static Graph graph(XmlNode g, Problems problems) {
        int id = problems.integer(g, "id", true, 0, 4, -1);
        int patternCode = problems.integer(g, "pattern", true, 1, 6, -1);
        int crossNic = problems.integer(g, "crossnic", false, 0, 2, 0);
        int nChannels = problems.integer(g, "nchannels", true, 0, 64, -1);
        double bwIntra = problems.decimal(g, "speedintra", true, 0, -1);
        double bwInter = problems.decimal(g, "speedinter", true, 0, -1);
        double latencyInter = problems.decimal(g, "latencyinter", false, 0, 0);
        PathType typeIntra = type(g, "typeintra", problems);
        PathType typeInter = type(g, "typeinter", problems);
        int same = problems.integer(g, "samechannels", false, 0, 1, 0);
        List<Channel> channels = new ArrayList<>();
        for (XmlNode c : g.children()) {
            if (!c.name().equals("channel")) {
                problems.at(c, "unexpected element <" + c.name() + "> in <graph>; allowed: <channel>");
                continue;
            }
            List<Step> steps = new ArrayList<>();
            for (XmlNode d : c.children()) {
                if (!d.name().equals("gpu") && !d.name().equals("net")) {
                    problems.at(d, "unexpected element <" + d.name() + "> in <channel>; allowed: <gpu>, <net>");
                    continue;
                }
                Step step = NcclTopoId.step(d, problems);
                if (step != null) {
                    steps.add(step);
                }
            }
            channels.add(new Channel(steps));
        }
        if (nChannels >= 0 && nChannels != channels.size()) {
            problems.at(g, "nchannels", "found " + nChannels + " but the graph holds " + channels.size()
                    + " <channel> elements; allowed: their number");
        }
        if (id < 0 || patternCode < 0 || nChannels < 0 || bwIntra < 0 || bwInter < 0 || typeIntra == null
                || typeInter == null) {
            return null;
        }
        return new Graph(id, GraphPattern.ofNcclNumber(patternCode), crossNic, nChannels, bwIntra, bwInter,
                latencyInter, typeIntra, typeInter, same, channels);
    }

    private static PathType type(XmlNode g, String attr, Problems problems) {
        String v = g.attr(attr);
        if (v == null) {
            problems.at(g, attr, "missing; allowed: one of " + TYPES);
            return null;
        }
        try {
            return PathType.valueOf(v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problems.at(g, attr, "found '" + v + "'; allowed: one of " + TYPES);
            return null;
        }
    }
}
