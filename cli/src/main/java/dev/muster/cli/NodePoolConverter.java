package dev.muster.cli;

import dev.muster.embedded.NodePool;
import picocli.CommandLine;

/** Reads {@code --nodes [PREFIX:]COUNT:RESOURCES[:LABELS]}. */
final class NodePoolConverter implements CommandLine.ITypeConverter<NodePool> {
    @Override
    public NodePool convert(String text) {
        try {
            return NodePool.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
