package dev.muster.embedded;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a request body in Kubernetes' protobuf encoding ({@code application/vnd.kubernetes.protobuf}):
 * the four bytes {@code k8s\0}, then a {@code runtime.Unknown} whose {@code typeMeta} names the
 * object's apiVersion and kind and whose {@code raw} is the object's message, as kube-apiserver's
 * protobuf serializer reads it. The messages are described by Kubernetes' own {@code generated.proto}
 * files (see {@code src/main/protobuf/README.md}), compiled into a descriptor set at build time;
 * {@link ProtobufJson} turns a message into the JSON kube-apiserver would store.
 */
final class ProtobufBodies {
    static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final String DESCRIPTORS = "kubernetes.protoset";
    private static final String UNKNOWN = "k8s.io.apimachinery.pkg.runtime.Unknown";
    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1";
    private static final ProtobufBodies INSTANCE = load();

    private final ImmutableMap<String, Descriptor> messages;

    private ProtobufBodies(ImmutableMap<String, Descriptor> messages) {
        this.messages = messages;
    }

    static ProtobufBodies instance() {
        return INSTANCE;
    }

    /** A body Kubernetes' protobuf serializer wrote: its object as JSON, with apiVersion and kind; or why it cannot be read. */
    Result read(byte[] body) {
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            return Result.failure("the body does not start with Kubernetes' protobuf prefix");
        }
        DynamicMessage unknown;
        try {
            unknown = DynamicMessage.parseFrom(messages.get(UNKNOWN), Arrays.copyOfRange(body, MAGIC.length, body.length));
        } catch (InvalidProtocolBufferException e) {
            return Result.failure("the body is not a protobuf runtime.Unknown: " + e.getMessage());
        }
        DynamicMessage typeMeta = (DynamicMessage) unknown.getField(field(UNKNOWN, "typeMeta"));
        String apiVersion = (String) typeMeta.getField(typeMeta.getDescriptorForType().findFieldByName("apiVersion"));
        String kind = (String) typeMeta.getField(typeMeta.getDescriptorForType().findFieldByName("kind"));
        Optional<Descriptor> type = type(apiVersion, kind);
        if (type.isEmpty()) {
            return Result.failure("the embedded API server cannot read " + apiVersion + " " + kind + " in protobuf; send it as JSON");
        }
        ByteString raw = (ByteString) unknown.getField(field(UNKNOWN, "raw"));
        try {
            ObjectNode object = ProtobufJson.object(DynamicMessage.parseFrom(type.get(), raw));
            ObjectNode typed = object.objectNode().put("apiVersion", apiVersion).put("kind", kind);
            typed.setAll(object);
            return new Result(Optional.of(typed), "");
        } catch (InvalidProtocolBufferException e) {
            return Result.failure(apiVersion + " " + kind + " is not a valid protobuf message: " + e.getMessage());
        }
    }

    /** The message type of that full name ({@code k8s.io.api.core.v1.Pod}), for tests that write protobuf. */
    Optional<Descriptor> descriptor(String fullName) {
        return Optional.ofNullable(messages.get(fullName));
    }

    /** The message of an apiVersion's kind: {@code v1} is {@code k8s.io.api.core.v1}, {@code events.k8s.io/v1} {@code k8s.io.api.events.v1}. */
    private Optional<Descriptor> type(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "core" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        String shortGroup = group.endsWith(".k8s.io") ? group.substring(0, group.indexOf('.')) : group;
        Descriptor found = messages.get("k8s.io.api." + shortGroup + "." + version + "." + kind);
        // DeleteOptions and the other meta kinds travel under any group's version
        return Optional.ofNullable(found != null ? found : messages.get(META + "." + kind));
    }

    private FieldDescriptor field(String message, String name) {
        return messages.get(message).findFieldByName(name);
    }

    private static ProtobufBodies load() {
        FileDescriptorSet set;
        try (InputStream in = ProtobufBodies.class.getResourceAsStream(DESCRIPTORS)) {
            if (in == null) {
                throw new IllegalStateException("BUG: " + DESCRIPTORS + " is not packaged next to " + ProtobufBodies.class.getName());
            }
            set = FileDescriptorSet.parseFrom(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DESCRIPTORS, e);
        }
        // protoc --include_imports writes each file after the files it imports
        Map<String, FileDescriptor> files = new HashMap<>();
        Map<String, Descriptor> messages = new HashMap<>();
        for (FileDescriptorProto proto : set.getFileList()) {
            FileDescriptor[] dependencies = proto.getDependencyList().stream().map(files::get).toArray(FileDescriptor[]::new);
            try {
                FileDescriptor file = FileDescriptor.buildFrom(proto, dependencies);
                files.put(proto.getName(), file);
                file.getMessageTypes().forEach(message -> messages.put(message.getFullName(), message));
            } catch (DescriptorValidationException e) {
                throw new IllegalStateException("BUG: " + proto.getName() + " in " + DESCRIPTORS + ": " + e.getMessage(), e);
            }
        }
        return new ProtobufBodies(ImmutableMap.copyOf(messages));
    }

    /** The object read, or an empty object and why not. */
    record Result(Optional<ObjectNode> object, String problem) {
        static Result failure(String problem) {
            return new Result(Optional.empty(), problem);
        }
    }
}
