package dev.collsim.topology.io.infragraph;

import dev.collsim.topology.io.infragraph.InfraGraphModel.Graph;
import dev.collsim.topology.io.infragraph.InfraGraphModel.Instance;

import dev.collsim.io.InputException;
import dev.collsim.io.TopologyReader;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.io.yaml.YamlTree;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.Problems;
import dev.collsim.topology.paths.Reachability;
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
        } else {
            unreachable(t, g, problems);
        }
        problems.throwIfAny();
        return t;
    }

    /**
     * Refuses what NCCL could not join ({@link Reachability}), each gap at the instance of its host (hosts numbered
     * in instance order, then copy, as {@link InfraGraphMapper} numbers them): the file has no line for an edge it
     * leaves out.
     */
    private static void unreachable(Topology t, Graph g, Problems problems) {
        for (Reachability.Gap gap : Reachability.of(t)) {
            int h = gap.host();
            for (Instance inst : g.instances()) {
                if (!inst.device().isHost()) {
                    continue;
                }
                if (h < inst.count()) {
                    problems.add(inst.at(), "instances", inst.name() + "[" + h + "] (host " + gap.host() + "): "
                            + gap.message() + "; allowed: " + (gap.kind() == Reachability.Kind.GPU_PAIR
                            ? "the device's edges joining every xpu to a pcie or nvlink component"
                            : "edges that join a nic of every host copy to a switch of one fabric"));
                    break;
                }
                h -= inst.count();
            }
        }
    }
}
