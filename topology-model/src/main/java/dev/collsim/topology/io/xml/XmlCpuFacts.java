package dev.collsim.topology.io.xml;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.topology.io.HardwareHints;
import java.util.Optional;

/**
 * The CPU facts of one NCCL XML {@code <cpu>} element with the CPU hints applied ({@code --cpu-vendor},
 * {@code --cpu-model}, {@link HardwareHints}). NCCL keeps the {@code vendor}, {@code familyid} and {@code modelid} a
 * {@code <cpu>} states and fills each one left out from the CPUID of the machine it runs on (NCCL 2.30
 * {@code src/graph/xml.cc ncclTopoGetXmlFromCpu}: set only where the attribute's index is -1), then chooses the
 * inter-CPU bandwidth by them ({@code src/graph/topo.cc ncclTopoGetInterCpuBw}). A hint names that machine's CPU, so
 * it fills what the element leaves out (a hand-written file), as NCCL would; a hint that contradicts what the element
 * states is not applied, as NCCL would not, and the {@code conflict} line says so (it was dropped without a word).
 * Immutable.
 *
 * @param vendor   CPUID vendor, {@code GenuineIntel}, {@code AuthenticAMD}, or empty when neither names it
 * @param family   CPUID family, -1 when neither names it
 * @param model    CPUID model, -1 when neither names it
 * @param conflict the note for a hint the element contradicts, empty otherwise
 * @param database the CPU database's family of this CPU, whose socket links give the physical inter-CPU figure (as
 *                 the nvidia-smi reader and the catalog hosts take it): the {@code --cpu-model} hint's when applied,
 *                 else the one the CPUID names ({@link CpuModels#ofCpuid}); empty when neither names one
 */
record XmlCpuFacts(String vendor, int family, int model, Optional<String> conflict, Optional<CpuModel> database) {

    /**
     * @param vendor the element's {@code vendor}, empty when absent
     * @param family its {@code familyid}, -1 when absent
     * @param model  its {@code modelid}, -1 when absent
     * @param h      the hints
     * @return the facts in force
     */
    static XmlCpuFacts of(String vendor, int family, int model, HardwareHints h) {
        if (h.cpuVendor() == null) {
            return new XmlCpuFacts(vendor, family, model, Optional.empty(), CpuModels.ofCpuid(vendor, family, model));
        }
        boolean otherVendor = !vendor.isEmpty() && !vendor.equals(h.cpuVendor());
        boolean otherIds = h.cpuFamily() >= 0 && family >= 0 && (family != h.cpuFamily() || model != h.cpuModel());
        if (otherVendor || otherIds) {
            return new XmlCpuFacts(vendor, family, model, Optional.of("CPU hint (vendor " + h.cpuVendor()
                    + (h.cpuFamily() >= 0 ? ", family " + h.cpuFamily() + " model " + h.cpuModel() : "") + ") not"
                    + " applied: the file's <cpu> states vendor " + vendor + (family >= 0 ? ", family " + family
                    + " model " + model : "") + ", as NCCL read it on the machine"),
                    CpuModels.ofCpuid(vendor, family, model));
        }
        boolean fill = family < 0 && h.cpuFamily() >= 0;
        int f = fill ? h.cpuFamily() : family;
        int m = fill ? h.cpuModel() : model;
        Optional<CpuModel> named = Optional.ofNullable(h.cpuName()).flatMap(CpuModels::family);
        return new XmlCpuFacts(h.cpuVendor(), f, m, Optional.empty(),
                named.isPresent() ? named : CpuModels.ofCpuid(h.cpuVendor(), f, m));
    }
}
