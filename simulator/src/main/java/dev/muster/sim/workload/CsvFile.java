package dev.muster.sim.workload;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.sim.SimulationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A trace file in plain CSV (the traces quote nothing): the header's column positions and the rows
 * with their line numbers. Blank lines are dropped; a missing column in the header fails the load.
 */
final class CsvFile {
    record Row(int line, ImmutableList<String> fields) {
        String get(int column) {
            return column < fields.size() ? fields.get(column).trim() : "";
        }
    }

    private final ImmutableMap<String, Integer> columns;
    private final ImmutableList<Row> rows;

    private CsvFile(ImmutableMap<String, Integer> columns, ImmutableList<Row> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    static CsvFile read(Path path, String... requiredColumns) {
        List<String> lines;
        try {
            lines = Files.readAllLines(path);
        } catch (NoSuchFileException e) {
            throw new SimulationException("trace file " + path + " does not exist", e);
        } catch (IOException e) {
            throw new SimulationException("cannot read trace file " + path + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty() || lines.get(0).isBlank()) {
            throw new SimulationException(path + ": empty file, expected a header with " + String.join(",", requiredColumns));
        }
        String[] header = lines.get(0).split(",", -1);
        ImmutableMap.Builder<String, Integer> columns = ImmutableMap.builder();
        for (int i = 0; i < header.length; i++) {
            columns.put(header[i].trim(), i);
        }
        ImmutableMap<String, Integer> byName = columns.buildKeepingLast();
        List<String> missing = new ArrayList<>();
        for (String required : requiredColumns) {
            if (!byName.containsKey(required)) {
                missing.add(required);
            }
        }
        if (!missing.isEmpty()) {
            throw new SimulationException(path + ":1: header lacks column(s) " + String.join(", ", missing)
                    + " (found: " + lines.get(0) + ")");
        }
        ImmutableList.Builder<Row> rows = ImmutableList.builder();
        for (int i = 1; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                rows.add(new Row(i + 1, ImmutableList.copyOf(lines.get(i).split(",", -1))));
            }
        }
        return new CsvFile(byName, rows.build());
    }

    int column(String name) {
        return columns.get(name);
    }

    ImmutableList<Row> rows() {
        return rows;
    }

    static double number(Row row, int column, String name) {
        String text = row.get(column);
        try {
            double value = Double.parseDouble(text);
            if (!Double.isFinite(value)) {
                throw new RowException(name + " is not finite: '" + text + "'");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new RowException(name + " is not a number: '" + text + "'");
        }
    }

    /** A row that cannot be used; the loader records it with the line number and skips the row. */
    static final class RowException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RowException(String message) {
            super(message);
        }
    }
}
