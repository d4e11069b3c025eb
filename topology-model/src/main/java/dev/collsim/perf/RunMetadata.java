package dev.collsim.perf;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run needs to be compared with a prediction: software versions, settings, GPUs and the topology and
 * channels NCCL reported.
 *
 * @param ncclVersion        NCCL library version, e.g. {@code 2.28.3} (ncclGetVersion); null when unknown
 * @param ncclVersionCode    NCCL's integer version code, e.g. 22803; 0 when unknown
 * @param cudaRuntimeVersion CUDA runtime version code (cudaRuntimeGetVersion), e.g. 13000; 0 when unknown
 * @param cudaDriverVersion  CUDA driver API version code (cudaDriverGetVersion); 0 when unknown
 * @param ncclEnv            every {@code NCCL_*} environment variable of the measuring process, sorted by name
 * @param hostnames          host names taking part, in rank order of first appearance
 * @param gpus               one entry per rank
 * @param topologyXml        the topology NCCL detected (content of {@code NCCL_TOPO_DUMP_FILE}); null when none
 * @param ncclLog            the lines of NCCL's INFO output that name channels, rings, trees, algorithms and
 *                           protocols (empty when not captured)
 * @param startTime          ISO-8601 start time (UTC)
 * @param endTime            ISO-8601 end time (UTC)
 * @param settings           the label of the NCCL setting this run used in a settings sweep (e.g.
 *                           {@code NCCL_ALGO=Ring}), or empty
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RunMetadata(
        @JsonProperty("nccl_version") String ncclVersion,
        @JsonProperty("nccl_version_code") int ncclVersionCode,
        @JsonProperty("cuda_runtime_version") int cudaRuntimeVersion,
        @JsonProperty("cuda_driver_version") int cudaDriverVersion,
        @JsonProperty("nccl_env") Map<String, String> ncclEnv,
        @JsonProperty("hostnames") List<String> hostnames,
        @JsonProperty("gpus") List<GpuInfo> gpus,
        @JsonProperty("topology_xml") String topologyXml,
        @JsonProperty("nccl_log") List<String> ncclLog,
        @JsonProperty("start_time") String startTime,
        @JsonProperty("end_time") String endTime,
        @JsonProperty("settings") String settings) {

    /** Copies the collections so the record stays immutable. */
    public RunMetadata {
        ncclEnv = ncclEnv == null ? Map.of() : Map.copyOf(new TreeMap<>(ncclEnv));
        hostnames = hostnames == null ? List.of() : List.copyOf(hostnames);
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
        ncclLog = ncclLog == null ? List.of() : List.copyOf(ncclLog);
        settings = settings == null ? "" : settings;
    }

    /**
     * @param topologyXml the topology dump
     * @param ncclLog     the captured NCCL log lines
     * @return a copy with the topology and log replaced
     */
    public RunMetadata withNcclOutput(String topologyXml, List<String> ncclLog) {
        return new RunMetadata(ncclVersion, ncclVersionCode, cudaRuntimeVersion, cudaDriverVersion, ncclEnv,
                hostnames, gpus, topologyXml, ncclLog, startTime, endTime, settings);
    }
}
