package dev.collsim.sweep.spec;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeSet;

/**
 * The price of a design, from the spec's {@code cost:} (every price in one currency, named in the spec). Capital cost
 * counts the parts of the cluster as built ({@link BillOfMaterials}); running cost is paid per GPU-hour and, when a
 * power figure is given, for energy, over the run time: {@code hours}, or for a plan with {@code train-tokens} the
 * time to train them at the predicted tokens per second. Immutable.
 *
 * @param currency       e.g. {@code USD}
 * @param perGpu         price per GPU (host share included), currency units; NaN when only per-model prices are given
 * @param perGpuModel    price per GPU of a model, by the model's name in the GPU database (e.g. {@code H100 SXM});
 *                       overrides {@code perGpu}
 * @param perNicPort     price per compute NIC port on the fabric
 * @param perSwitchPort  price per switch port in use
 * @param perCable       price per network cable (NIC-switch and switch-switch)
 * @param perGpuHour     rent per GPU-hour
 * @param hours          run time priced per GPU-hour and for energy, hours (0 when not given)
 * @param trainTokens    plans: tokens to train; when > 0 the run time of a plan is trainTokens / (tokens/s) and
 *                       {@code hours} is used only for collectives
 * @param wattsPerGpu    electrical power per GPU (host share included), W; 0 when not given
 * @param perKwh         price of energy per kWh
 */
public record CostModel(String currency, double perGpu, Map<String, Double> perGpuModel, double perNicPort, double perSwitchPort, double perCable,
        double perGpuHour, double hours, double trainTokens, double wattsPerGpu, double perKwh)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /** No prices: every design costs 0. */
    public static final CostModel NONE = new CostModel("USD", 0, Map.of(), 0, 0, 0, 0, 0, 0, 0, 0);

    /** Copies the map. */
    public CostModel {
        perGpuModel = Map.copyOf(perGpuModel);
    }

    /**
     * @return true when no price is given (no {@code cost:} section, or every price 0): every design then costs 0, so
     *         each workload's Pareto front is its fastest point alone
     */
    public boolean isFree() {
        return perGpu == 0 && perGpuModel.values().stream().allMatch(v -> v == 0) && perNicPort == 0
                && perSwitchPort == 0 && perCable == 0 && perGpuHour == 0 && (perKwh == 0 || wattsPerGpu == 0);
    }

    /**
     * @return capital cost of a design's parts, currency units
     * @throws IllegalArgumentException when a GPU model of the design has no price
     */
    public double capital(BillOfMaterials bom) {
        double gpus = 0;
        for (Map.Entry<String, Integer> e : bom.gpuModels().entrySet()) {
            double price = perGpuModel.getOrDefault(e.getKey(), perGpu);
            if (Double.isNaN(price)) {
                throw new IllegalArgumentException("no price for GPU model " + e.getKey() + " under cost.gpu; priced: "
                        + String.join(", ", new TreeSet<>(perGpuModel.keySet())));
            }
            gpus += e.getValue() * price;
        }
        return gpus + bom.nicPorts() * perNicPort + bom.switchPorts() * perSwitchPort + bom.cables() * perCable;
    }

    /**
     * @param tokensPerS a plan's predicted tokens per second, or NaN for a collective
     * @return the run time priced, hours: {@code trainTokens / tokensPerS / 3600} for a plan when train-tokens is
     *         given, {@code hours} otherwise
     */
    public double runHours(double tokensPerS) {
        if (trainTokens > 0 && !Double.isNaN(tokensPerS)) {
            return tokensPerS > 0 ? trainTokens / tokensPerS / 3600 : Double.POSITIVE_INFINITY;
        }
        return hours;
    }

    /**
     * @param gpus     GPUs of the design
     * @param runHours hours of use
     * @return GPU-hour rent plus energy (GPUs x W / 1000 x hours x price per kWh), currency units
     */
    public double running(int gpus, double runHours) {
        double rent = perGpuHour > 0 ? gpus * perGpuHour * runHours : 0;
        double energy = wattsPerGpu > 0 && perKwh > 0 ? gpus * wattsPerGpu / 1000 * runHours * perKwh : 0;
        return rent + energy;
    }

    /** @return electrical power of the design's GPUs, kW (0 when no power figure is given) */
    public double powerKw(int gpus) {
        return gpus * wattsPerGpu / 1000;
    }
}
