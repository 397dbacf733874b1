package dev.muster.bridge.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/** Jars made by a test from compiled classes (the tests' Spark job), with the JDK's own jar writer. */
public final class TestJars {
    private TestJars() {}

    /** A jar at {@code jar} of every file under {@code root}/{@code packagePath}, with {@code mainClass} in its manifest. */
    public static Path write(Path jar, Path root, String packagePath, String mainClass) {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try {
            Files.createDirectories(jar.getParent());
            List<Path> files;
            try (Stream<Path> walk = Files.walk(root.resolve(packagePath))) {
                files = walk.filter(Files::isRegularFile).sorted().toList();
            }
            try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
                for (Path file : files) {
                    jarOut.putNextEntry(new JarEntry(root.relativize(file).toString().replace('\\', '/')));
                    jarOut.write(Files.readAllBytes(file));
                    jarOut.closeEntry();
                }
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + jar, e);
        }
    }
}
