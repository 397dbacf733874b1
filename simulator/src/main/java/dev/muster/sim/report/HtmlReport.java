package dev.muster.sim.report;

import dev.muster.sim.Comparison;

/** The comparison as one self-contained HTML file. */
public final class HtmlReport {
    private HtmlReport() {}

    public static String render(Comparison comparison) {
        return "<!doctype html><title>muster simulate</title><p>" + comparison.workload().source() + "</p>";
    }
}
