package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The summary's "note" column: a variant whose shown numbers (every size of the first sweep, the first plan) equal
 * the base's is marked "same as base", with the oversubscription reason when its change is a fat-tree; a variant
 * that differs at a single size is not marked. Data made up so the verdict is clear by construction.
 */
class ReportSummaryTest {

    private static ReportData.SweepRow row(String v, long size, double us) {
        return new ReportData.SweepRow(v, "AllReduce", "bfloat16", 32, size, us, size / (us * 1e3),
                size / (us * 1e3) * 1.9375, 400, "Ring", "Simple", 16, us, "-", "analytical");
    }

    private static ReportData.PlanRow plan(String v, double stepMs) {
        return new ReportData.PlanRow(v, "70B", "job", 32, true, 100, 10, 50, 20, stepMs, 1000, 0.8, "given");
    }

    @Test
    void marksVariantsEqualToBase() {
        List<ReportData.VariantRow> variants = List.of(
                new ReportData.VariantRow("base", "c", 4, 32, "-", "", "", "analytical"),
                new ReportData.VariantRow("2:1 fat-tree", "c (fat-tree, 2.0:1 oversubscribed)", 4, 32,
                        "fat-tree, 2.0:1 oversubscribed", "", "", "analytical"),
                new ReportData.VariantRow("NCCL_ALGO=Ring", "c", 4, 32, "-", "NCCL_ALGO=Ring", "", "analytical"),
                new ReportData.VariantRow("NIC 200", "c (NIC 200 Gb/s)", 4, 32, "NIC 200 Gb/s", "", "", "analytical"));
        List<ReportData.SweepRow> sweeps = new ArrayList<>();
        for (String v : List.of("base", "2:1 fat-tree", "NCCL_ALGO=Ring", "NIC 200")) {
            sweeps.add(row(v, 1024, 30));
            // NIC 200 differs only at the largest size: 2 x the time
            sweeps.add(row(v, 1L << 30, v.equals("NIC 200") ? 12000 : 6000));
        }
        List<ReportData.PlanRow> plans = List.of(plan("base", 200), plan("2:1 fat-tree", 200),
                plan("NCCL_ALGO=Ring", 200), plan("NIC 200", 200));
        ReportData d = new ReportData("t", "s", variants, sweeps, List.of(), plans, List.of(), List.of(), List.of(),
                List.of(), List.of());
        List<List<String>> t = ReportSummary.table(d);
        int note = t.get(0).indexOf("note");
        assertTrue(note > 0, t.get(0).toString());
        assertEquals("", t.get(1).get(note));
        assertTrue(t.get(2).get(note).startsWith("same as base (AllReduce all sizes, step): the fabric's leaf uplinks"
                + " do not limit these sizes; link sharing above"), t.get(2).get(note));
        assertEquals("same as base (AllReduce all sizes, step): the model predicts no difference for this change",
                t.get(3).get(note));
        assertEquals("", t.get(4).get(note));
        assertTrue(ReportSummary.text(t).lines().noneMatch(l -> l.endsWith(" ")), "no trailing blanks");
    }

    @Test
    void noNoteColumnWhenEveryVariantDiffers() {
        List<ReportData.VariantRow> variants = List.of(new ReportData.VariantRow("base", "c", 4, 32, "-", "", "", "analytical"),
                new ReportData.VariantRow("NIC 200", "c", 4, 32, "NIC 200 Gb/s", "", "", "analytical"));
        ReportData d = new ReportData("t", "s", variants, List.of(row("base", 1024, 30), row("NIC 200", 1024, 31)),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        assertTrue(!ReportSummary.table(d).get(0).contains("note"));
    }

    /** A flow-timed fabric variant equal to the base is explained by the fabric, not the model's blindness. */
    @Test
    void flowVariantsSayWhichBackendTimedThem() {
        List<ReportData.VariantRow> variants = List.of(
                new ReportData.VariantRow("base", "c", 4, 32, "-", "", "", "analytical"),
                new ReportData.VariantRow("1:1 fat-tree", "c (fat-tree)", 4, 32, "fat-tree", "", "", "flow (spray)"));
        ReportData d = new ReportData("t", "s", variants, List.of(row("base", 1024, 30), row("1:1 fat-tree", 1024,
                30)), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        List<List<String>> t = ReportSummary.table(d);
        int backend = t.get(0).indexOf("backend");
        assertEquals("analytical", t.get(1).get(backend));
        assertEquals("flow (spray)", t.get(2).get(backend));
        assertEquals("same as base (AllReduce all sizes): the flow simulation finds that the fabric does not limit",
                t.get(2).get(t.get(0).indexOf("note")));
    }

    /** The largest size's bottleneck is named: what holds both the base and the variant (a NIC what-if on one host). */
    @Test
    void noDifferenceNamesWhatHoldsBoth() {
        List<ReportData.VariantRow> variants = List.of(
                new ReportData.VariantRow("base", "c", 1, 8, "-", "", "", "analytical"),
                new ReportData.VariantRow("NIC 400", "c (NIC 400 Gb/s)", 1, 8, "NIC 400 Gb/s", "", "", "analytical"));
        List<ReportData.SweepRow> sweeps = new ArrayList<>();
        for (String v : List.of("base", "NIC 400")) {
            sweeps.add(row(v, 1024, 30));
            sweeps.add(new ReportData.SweepRow(v, "AllReduce", "bfloat16", 8, 1L << 33, 90000, 95.4, 167.0, 20,
                    "Ring", "Simple", 2, 90000, "PCIe/SMP: busbw <= 20.0 (cross-socket hop)", "analytical"));
        }
        ReportData d = new ReportData("t", "s", variants, sweeps, List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of());
        List<List<String>> t = ReportSummary.table(d);
        assertEquals("same as base (AllReduce all sizes): the model predicts no difference for this change; at 8G"
                + " both are held by PCIe/SMP: busbw <= 20.0 (cross-socket hop)",
                t.get(2).get(t.get(0).indexOf("note")));
    }

    /**
     * A 2:1 variant whose first sweep (AllReduce) and plan equal the base's but whose AllToAll is slower: the "same
     * as base" note names AllToAll and the ratio at its worst size, 9000 / 6000 us = 1.50x at 1 GiB (by hand), and
     * not the AllGather that matches. (Found on a 16-host RoCE design where the flow-timed 2:1 fabric left AllReduce
     * alone but slowed AllToAll, and the note said only that the fabric does not limit.)
     */
    @Test
    void sameAsBaseNoteNamesOtherSweepsThatDiffer() {
        List<ReportData.VariantRow> variants = List.of(
                new ReportData.VariantRow("base", "c", 16, 128, "-", "", "", "analytical"),
                new ReportData.VariantRow("2:1", "c (2:1 oversubscribed)", 16, 128, "2:1 oversubscribed", "", "",
                        "flow (ecmp, seed 0)"));
        List<ReportData.SweepRow> sweeps = new ArrayList<>();
        for (String v : List.of("base", "2:1")) {
            sweeps.add(row(v, 1L << 30, 6000));
            sweeps.add(other(v, "AllGather", 1L << 30, 4000));
            sweeps.add(other(v, "AllToAll", 1L << 20, v.equals("2:1") ? 130 : 100));
            sweeps.add(other(v, "AllToAll", 1L << 30, v.equals("2:1") ? 9000 : 6000));
        }
        ReportData d = new ReportData("t", "s", variants, sweeps, List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of());
        assertEquals("same as base (AllReduce all sizes): the flow simulation finds that the fabric does not limit"
                + "; differs: AllToAll (1.50x the base's time at 1G)", ReportSummary.sameAsBaseNote(d,
                variants.get(1)));
    }

    private static ReportData.SweepRow other(String v, String coll, long size, double us) {
        return new ReportData.SweepRow(v, coll, "bfloat16", 128, size, us, size / (us * 1e3), size / (us * 1e3),
                400, "Ring", "Simple", 16, us, "-", "analytical");
    }

    /**
     * Under the terminal table: one line saying what "efficiency" is, then why the first plan does not fit, one line
     * per reason naming its variants in order (the table cell only says "does not fit"); a second plan is not
     * explained there.
     */
    @Test
    void notesExplainEfficiencyAndWhyAPlanDoesNotFit() {
        String few = "does not fit: needs 32 GPUs (dp=2 x tp=8 x pp=2), the cluster has 8; even dp=1 needs 16";
        List<ReportData.VariantRow> variants = List.of(new ReportData.VariantRow("base", "c", 4, 32, "-", "", "",
                "analytical"), new ReportData.VariantRow("1 host", "c", 1, 8, "hosts 1", "", "", "analytical"),
                new ReportData.VariantRow("1 host B", "c", 1, 8, "hosts 1", "", "", "analytical"),
                new ReportData.VariantRow("small GPUs", "c", 4, 32, "host-type", "", "", "analytical"));
        ReportData.PlanRow noRoom = ReportData.PlanRow.notFitting("small GPUs", "70B", "job", 32,
                "does not fit in GPU memory: needs 90 GiB");
        List<ReportData.PlanRow> plans = List.of(plan("base", 200),
                ReportData.PlanRow.notFitting("1 host", "70B", "job", 32, few),
                ReportData.PlanRow.notFitting("1 host B", "70B", "job", 32, few), noRoom,
                ReportData.PlanRow.notFitting("base", "8B", "job", 64, "does not fit: other"));
        ReportData d = new ReportData("t", "s", variants, List.of(), List.of(), plans, List.of(), List.of(), List.of(),
                List.of(), List.of());
        assertEquals(List.of("efficiency: compute time / step time of \"70B\" (collsim plan's scaling efficiency;"
                + " 100% = no pipeline bubble, no exposed communication)", "\"1 host\", \"1 host B\": " + few,
                "\"small GPUs\": does not fit in GPU memory: needs 90 GiB"), ReportSummary.notes(d));
        ReportData none = new ReportData("t", "s", variants, List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of());
        assertEquals(List.of(), ReportSummary.notes(none));
    }

    /**
     * A sweep on 32 of a variant's 64 GPUs (a sweep's gpus key) says so in its busbw cell: 64 in the GPUs column
     * next to the busbw of half the hosts read as the whole cluster's figure. A variant of 32 GPUs needs no note.
     */
    @Test
    void busbwCellNamesItsRanksWhenFewerThanTheVariantsGpus() {
        List<ReportData.VariantRow> variants = List.of(new ReportData.VariantRow("base", "c", 8, 64, "-", "", "",
                "analytical"), new ReportData.VariantRow("all", "c", 4, 32, "-", "", "", "analytical"));
        ReportData d = new ReportData("t", "s", variants, List.of(row("base", 1024, 30), row("all", 1024, 31)),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        List<List<String>> t = ReportSummary.table(d);
        int busbw = t.get(0).indexOf("AllReduce busbw @1K");
        // row(): 32 ranks, 1024 B in 30 us: algbw 1024 / 30e3 = 0.0341 GB/s, busbw x 1.9375 = 0.066 -> "0.1"
        assertEquals("0.1 GB/s on 32 ranks", t.get(1).get(busbw), t.toString());
        assertEquals("0.1 GB/s", t.get(2).get(busbw), t.toString());
    }
}
