package dev.muster.cli;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.JobOrigin;
import dev.muster.engine.model.ClusterSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The what-if decisions as tables a person reads: binds, evictions, reservations, then every PodGroup. */
final class WhatIfTable {
    private WhatIfTable() {}

    static String render(ClusterSnapshot snapshot, SessionResult result) {
        StringBuilder out = new StringBuilder();
        int pendingJobs = (int) result.jobs().values().stream().filter(outcome -> !outcome.ready()).count();
        out.append(String.format("%d pods to bind, %d to evict, %d reserved; %d of %d PodGroups not ready%n%n",
                result.binds().size(), result.evictions().size(), result.pipelined().size(), pendingJobs, result.jobs().size()));
        if (!result.binds().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            result.binds().forEach((task, node) -> rows.add(new String[] {task.toString(), node.value()}));
            table(out, "BIND", new String[] {"POD", "NODE"}, rows);
        }
        if (!result.evictions().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            result.evictions().forEach(eviction -> rows.add(new String[] {
                eviction.task().toString(), eviction.job().toString(), eviction.queue().value(), eviction.action(), eviction.reason()}));
            table(out, "EVICT", new String[] {"POD", "PODGROUP", "QUEUE", "ACTION", "REASON"}, rows);
        }
        if (!result.pipelined().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            result.pipelined().forEach((task, node) -> rows.add(new String[] {task.toString(), node.value()}));
            table(out, "RESERVE (waits for releasing resources)", new String[] {"POD", "NODE"}, rows);
        }
        List<String[]> rows = new ArrayList<>();
        for (Map.Entry<JobId, SessionResult.JobOutcome> entry : result.jobs().entrySet()) {
            Job job = snapshot.jobs().get(entry.getKey());
            SessionResult.JobOutcome outcome = entry.getValue();
            rows.add(new String[] {
                entry.getKey().toString(),
                job == null ? "" : job.queue().value(),
                job == null ? "" : String.valueOf(job.minMember()),
                outcome.phase().text(),
                why(job, outcome)});
        }
        table(out, "PODGROUPS", new String[] {"PODGROUP", "QUEUE", "MIN", "PHASE", "WHY"}, rows);
        return out.toString();
    }

    /**
     * Why a PodGroup waits, with the workflow, run and step it comes from when its origin annotations name
     * them; for a ready one, what is held for it (its executors' room), if anything.
     */
    private static String why(Job job, SessionResult.JobOutcome outcome) {
        if (outcome.reason().isPresent()) {
            String reason = job == null ? outcome.reason().get() : JobOrigin.reasonWithOrigin(job, outcome.reason().get());
            return reason + outcome.reservation().map(reservation -> "; " + reservation).orElse("");
        }
        if (!outcome.ready()) {
            return outcome.reservation().orElse("");
        }
        return outcome.reservation().map(reservation -> "ready; " + reservation).orElse("ready");
    }

    /** The Argo Workflows of the dump that take part in workflow admission, and what it does with each; nothing when none does. */
    static String workflows(List<WorkflowAdmissions.Row> workflows) {
        if (workflows.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        List<String[]> rows = new ArrayList<>();
        workflows.forEach(row -> rows.add(new String[] {row.workflow(), row.queue(), row.need(), row.admission()}));
        table(out, "WORKFLOWS (Argo, submitted suspended for admission)", new String[] {"WORKFLOW", "QUEUE", "NEED", "ADMISSION"}, rows);
        return out.toString();
    }

    private static void table(StringBuilder out, String title, String[] header, List<String[]> rows) {
        out.append(title).append(System.lineSeparator());
        int[] widths = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            widths[i] = header[i].length();
        }
        for (String[] row : rows) {
            for (int i = 0; i < row.length - 1; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        line(out, header, widths);
        for (String[] row : rows) {
            line(out, row, widths);
        }
        out.append(System.lineSeparator());
    }

    private static void line(StringBuilder out, String[] cells, int[] widths) {
        out.append("  ");
        for (int i = 0; i < cells.length; i++) {
            if (i == cells.length - 1) {
                out.append(cells[i]);
            } else {
                out.append(String.format("%-" + widths[i] + "s  ", cells[i]));
            }
        }
        out.append(System.lineSeparator());
    }
}
