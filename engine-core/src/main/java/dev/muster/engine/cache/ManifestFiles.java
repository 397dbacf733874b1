package dev.muster.engine.cache;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** Finds and reads manifest files: for {@link ManifestReader}, and for a command that reads other kinds from the same dump. */
public final class ManifestFiles {
    private static final List<String> EXTENSIONS = List.of(".yaml", ".yml", ".json");

    private ManifestFiles() {}

    /**
     * The files to read, in order: each file as given, and the {@code *.yaml}, {@code *.yml} and
     * {@code *.json} files under each folder, recursively, sorted by path. A file reached twice is read once.
     */
    public static ImmutableList<Path> expand(List<Path> paths) {
        Set<Path> files = new LinkedHashSet<>();
        Set<Path> seen = new LinkedHashSet<>();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                for (Path file : walk(path)) {
                    if (seen.add(file.toAbsolutePath().normalize())) {
                        files.add(file);
                    }
                }
            } else if (Files.exists(path)) {
                if (seen.add(path.toAbsolutePath().normalize())) {
                    files.add(path);
                }
            } else {
                throw new ManifestException(path + ": no such file or folder");
            }
        }
        return ImmutableList.copyOf(files);
    }

    /** The file's bytes: decoding is the reader's, per document, so one bad byte costs one document. */
    public static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ManifestException(file + ": cannot be read: " + Optional.ofNullable(e.getMessage()).orElse("I/O error"), e);
        }
    }

    private static List<Path> walk(Path folder) {
        try (Stream<Path> tree = Files.walk(folder)) {
            return tree.filter(Files::isRegularFile)
                    .filter(ManifestFiles::isManifest)
                    .sorted()
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            throw new ManifestException(folder + ": cannot be listed: " + e.getMessage(), e);
        }
    }

    private static boolean isManifest(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return EXTENSIONS.stream().anyMatch(name::endsWith);
    }
}
