package dev.muster.embedded;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One container of a pod run as a local process, in a mount namespace of its own ({@code unshare}) whose root is an empty
 * tmpfs ({@code chroot}) holding only what a container of Argo's executor image needs: the executable at {@code /bin/NAME},
 * {@code /dev/null}, {@code zero}, {@code random} and {@code urandom}, {@code /dev/termination-log}, a kubeconfig at
 * {@link #KUBECONFIG}, and the pod's volumes at their mount paths. So two executors of two pods never see each other's
 * files, though Argo's executor writes to fixed paths ({@code /tmp/manifest.yaml}, {@code /var/run/argo}), as two
 * containers of a real node would not. Run as root it needs {@code CAP_SYS_ADMIN}; run as another user, a user namespace
 * ({@code --map-root-user}).
 */
record ContainerSandbox(Path root, Path executable, Path terminationLog, Path kubeconfig, ImmutableMap<String, Path> mounts) {
    /** Where the container finds the kubeconfig; its {@code KUBECONFIG} names it. */
    static final String KUBECONFIG = "/var/run/muster/kubeconfig";
    private static final List<String> DEVICES = List.of("null", "zero", "random", "urandom");
    // the positional parameters: root, executable, its name, termination log, kubeconfig, mount and chroot, then
    // SOURCE TARGET pairs up to "--", then the container's command
    private static final String SCRIPT = """
            set -eu
            root="$1"; executable="$2"; name="$3"; termination="$4"; kubeconfig="$5"; mount="$6"; chroot="$7"
            shift 7
            "$mount" -t tmpfs -o mode=0755 muster-container "$root"
            mkdir -p "$root/bin" "$root/dev" "$root/tmp" "$root/root" "$root/var/run/muster"
            : > "$root/bin/$name"; "$mount" --bind "$executable" "$root/bin/$name"
            : > "$root/dev/termination-log"; "$mount" --bind "$termination" "$root/dev/termination-log"
            : > "$root/var/run/muster/kubeconfig"; "$mount" --bind "$kubeconfig" "$root/var/run/muster/kubeconfig"
            for device in %s; do : > "$root/dev/$device"; "$mount" --bind "/dev/$device" "$root/dev/$device"; done
            while [ "$1" != "--" ]; do mkdir -p "$root$2"; "$mount" --bind "$1" "$root$2"; shift 2; done
            shift
            exec "$chroot" "$root" "$@"
            """.formatted(String.join(" ", DEVICES));

    ContainerSandbox {
        requireNonNull(root, "root is null");
        requireNonNull(executable, "executable is null");
        requireNonNull(terminationLog, "terminationLog is null");
        requireNonNull(kubeconfig, "kubeconfig is null");
        mounts = ImmutableMap.copyOf(mounts);
        mounts.keySet().forEach(target -> checkArgument(target.startsWith("/") && !target.contains(".."),
                "mount path must be absolute, without '..': %s", target));
    }

    /**
     * The command that runs {@code command} (whose first word is the executable's file name, found on the container's
     * {@code PATH=/bin}, or a path in the container) in the sandbox; the process's environment is the container's.
     *
     * @throws IllegalStateException naming what is missing when {@code unshare}, {@code mount}, {@code chroot} or
     *     {@code bash} is not on this machine
     */
    ImmutableList<String> command(List<String> command, Tools tools) {
        checkArgument(!command.isEmpty(), "command is empty");
        List<String> line = new ArrayList<>(List.of(tools.unshare().toString(), "--mount", "--propagation", "private"));
        if (!tools.root()) {
            line.addAll(List.of("--user", "--map-root-user"));
        }
        line.addAll(List.of(tools.bash().toString(), "-c", SCRIPT, "muster-container", root.toString(), executable.toString(),
                executable.getFileName().toString(), terminationLog.toString(), kubeconfig.toString(), tools.mount().toString(),
                tools.chroot().toString()));
        mounts.forEach((target, source) -> line.addAll(List.of(source.toString(), target)));
        line.add("--");
        // a bare name is found on the container's PATH, /bin, where the executable is; a path is the container's own
        line.add(command.get(0).startsWith("/") ? command.get(0) : "/bin/" + command.get(0));
        line.addAll(command.subList(1, command.size()));
        return ImmutableList.copyOf(line);
    }

    /** The programs the sandbox is made with, found on this machine, and whether this process runs as root. */
    record Tools(Path unshare, Path bash, Path mount, Path chroot, boolean root) {
        Tools {
            requireNonNull(unshare, "unshare is null");
            requireNonNull(bash, "bash is null");
            requireNonNull(mount, "mount is null");
            requireNonNull(chroot, "chroot is null");
        }

        /**
         * Finds them on {@code PATH} and in {@code /usr/sbin} and {@code /sbin}.
         *
         * @throws IllegalStateException naming each program not found
         */
        static Tools find(Map<String, String> environment) throws IOException {
            List<Path> directories = new ArrayList<>();
            Optional.ofNullable(environment.get("PATH")).stream().flatMap(path -> Stream.of(path.split(":")))
                    .filter(entry -> !entry.isEmpty()).map(Path::of).forEach(directories::add);
            directories.addAll(List.of(Path.of("/usr/sbin"), Path.of("/sbin"), Path.of("/usr/bin"), Path.of("/bin")));
            List<String> missing = new ArrayList<>();
            Path unshare = find("unshare", directories, missing);
            Path bash = find("bash", directories, missing);
            Path mount = find("mount", directories, missing);
            Path chroot = find("chroot", directories, missing);
            if (!missing.isEmpty()) {
                throw new IllegalStateException("cannot run a container as a local process: " + String.join(", ", missing)
                        + " not found on PATH or in /usr/sbin, /sbin (Debian: util-linux, coreutils, bash)");
            }
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return new Tools(unshare, bash, mount, chroot, Integer.valueOf(0).equals(uid));
        }

        private static Path find(String name, List<Path> directories, List<String> missing) {
            Optional<Path> found = directories.stream().map(directory -> directory.resolve(name)).filter(Files::isExecutable).findFirst();
            if (found.isEmpty()) {
                missing.add(name);
            }
            return found.orElse(Path.of(name));
        }
    }
}
