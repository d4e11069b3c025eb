package dev.collsim.topology.io.infragraph;

import dev.collsim.topology.io.infragraph.InfraGraphModel.Graph;

import dev.collsim.io.InputException;
import dev.collsim.io.TopologyReader;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.io.yaml.YamlTree;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.Problems;
import java.util.regex.Pattern;

/**
 * Reads an InfraGraph file (YAML or JSON; schema 2.4.0 of github.com/Keysight/infragraph, commit 2701fa5) into a
 * collsim topology. The file is either an {@code Infrastructure} object or InfraGraph's graph response
 * ({@code infrastructure:} plus {@code annotations:}). What maps how is in {@link InfraGraphMapper}. Detection by
 * content: an {@code infrastructure} key, or {@code instances} and {@code devices} keys, and no collsim
 * {@code schema:} line. Stateless.
 */
public final class InfraGraphReader implements TopologyReader {

    private static final Pattern WRAPPED = Pattern.compile("(?m)^\\s*\\{?\\s*\"?infrastructure\"?\\s*:");
    private static final Pattern INSTANCES = Pattern.compile("(?m)^\\s*\\{?\\s*\"?instances\"?\\s*:");
    private static final Pattern DEVICES = Pattern.compile("(?m)^\\s*\\{?\\s*\"?devices\"?\\s*:");
    private static final Pattern COLLSIM = Pattern.compile("(?m)^schema\\s*:");

    @Override
    public String format() {
        return "infragraph";
    }

    @Override
    public boolean accepts(String content) {
        if (content == null || COLLSIM.matcher(content).find()) {
            return false;
        }
        return WRAPPED.matcher(content).find()
                || INSTANCES.matcher(content).find() && DEVICES.matcher(content).find();
    }

    @Override
    public Topology read(String fileName, String content) throws InputException {
        Problems problems = new Problems(fileName);
        YamlNode root = YamlTree.parse(fileName, content, problems::add);
        if (!root.isMap()) {
            problems.add(root, "", "found " + root.found() + "; allowed: an InfraGraph infrastructure mapping");
            problems.throwIfAny();
        }
        Graph g = new InfraGraphParser(problems).parse(root);
        problems.throwIfAny();
        Topology t = new InfraGraphMapper(g, problems, fileName).map();
        if (t.gpus().isEmpty()) {
            problems.add(root, "instances", "no instance of a device with an xpu component: the file describes no"
                    + " GPUs; allowed: at least one instance whose device has a component of choice xpu");
        }
        problems.throwIfAny();
        return t;
    }
}
