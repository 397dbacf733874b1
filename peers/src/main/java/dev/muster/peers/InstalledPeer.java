package dev.muster.peers;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import java.nio.file.Path;
import java.util.List;

/** One line of {@code peers/install}'s output: a peer, its pinned version and its executable. */
public record InstalledPeer(String name, String version, Path executable) {
    public InstalledPeer {
        requireNonNull(name, "name is null");
        requireNonNull(version, "version is null");
        requireNonNull(executable, "executable is null");
        checkArgument(!name.isBlank(), "name is blank");
    }

    /** Parses {@code NAME VERSION PATH}; the path may not contain spaces, as the installer promises. */
    static InstalledPeer parse(String line) {
        List<String> fields = Splitter.on(' ').splitToList(line.trim());
        checkArgument(fields.size() == 3, "not a 'NAME VERSION PATH' line: '%s'", line);
        return new InstalledPeer(fields.get(0), fields.get(1), Path.of(fields.get(2)));
    }
}
