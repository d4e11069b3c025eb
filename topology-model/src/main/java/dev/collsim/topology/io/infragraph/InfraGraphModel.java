package dev.collsim.topology.io.infragraph;

import dev.collsim.io.yaml.YamlNode;
import java.util.List;
import java.util.Map;

/**
 * The parts of an InfraGraph file (schema 2.4.0) after parsing: devices with components and links, instances, and
 * the flat graph the edges expand to (one {@link Node} per component copy, named as InfraGraph names graph nodes:
 * {@code INSTANCE.I.COMPONENT.J}).
 */
final class InfraGraphModel {

    private InfraGraphModel() {
    }

    /**
     * A component of a device.
     *
     * @param name        component name
     * @param count       copies per device, >= 1
     * @param choice      cpu, xpu, nic, port, switch, memory, custom or device
     * @param description free text (may name a GPU model), or empty
     * @param at          where it is written
     */
    record Component(String name, int count, String choice, String description, YamlNode at) {
    }

    /**
     * A link definition.
     *
     * @param name        link name
     * @param description free text (collsim writes the link detail, e.g. {@code NVLink4 x18})
     * @param gbps        bandwidth per direction in GB/s (1e9 B/s), NaN when the file gives none
     * @param latencyUs   one-way latency in microseconds, 0 when absent
     * @param at          where it is written
     */
    record LinkDef(String name, String description, double gbps, double latencyUs, YamlNode at) {
    }

    /**
     * A device: a subgraph of components.
     *
     * @param name       device name
     * @param components components in file order
     * @param links      links by name
     * @param edges      the device's {@code edges} list (null when absent)
     */
    record DeviceDef(String name, List<Component> components, Map<String, LinkDef> links, YamlNode edges) {

        boolean isHost() {
            return components.stream().anyMatch(c -> c.choice().equals("xpu"));
        }

        Component component(String n) {
            return components.stream().filter(c -> c.name().equals(n)).findFirst().orElse(null);
        }
    }

    /**
     * An instance: count copies of a device.
     *
     * @param name   instance name
     * @param device its device
     * @param count  copies, >= 1
     * @param at     where it is written
     */
    record Instance(String name, DeviceDef device, int count, YamlNode at) {
    }

    /**
     * One graph node: copy {@code index} of a component in copy {@code instanceIndex} of an instance.
     *
     * @param instance      the instance
     * @param instanceIndex which copy of it
     * @param component     the component
     * @param index         which copy of the component
     */
    record Node(Instance instance, int instanceIndex, Component component, int index) {

        /** @return InfraGraph's node name, e.g. {@code host.0.xpu.3} */
        String key() {
            return instance.name() + "." + instanceIndex + "." + component.name() + "." + index;
        }
    }

    /**
     * One graph edge.
     *
     * @param a    one end
     * @param b    other end
     * @param link its link definition
     * @param at   the edge object it was expanded from
     */
    record Edge(Node a, Node b, LinkDef link, YamlNode at) {
    }

    /**
     * The whole file.
     *
     * @param name        infrastructure name
     * @param description infrastructure description
     * @param instances   instances in file order
     * @param edges       all edges, device edges of every copy then infrastructure edges
     * @param attributes  node annotations: node name -> attribute -> value
     */
    record Graph(String name, String description, List<Instance> instances, List<Edge> edges,
            Map<String, Map<String, String>> attributes) {
    }
}
