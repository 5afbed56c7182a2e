import JSONSchema

/// `defaults:`: values that every clip or overlay takes unless it says otherwise, so a
/// template writes `fit: cover` or its text style once. The project's `defaults:` holds `clip`
/// (for the clips of every video track) and `overlay` (for every overlay, those written in a
/// clip's `overlays:` too); a track's own `defaults: { clip: … }` comes first for its clips (an
/// audio track's for its sound clips).
///
///     defaults:
///       clip: { fit: cover, mute: true }
///       overlay: { enter: fade, exit: fade, style: { font: Inter, size: 64 } }
///
/// A key the item writes replaces the default's whole value, except `style`, whose keys merge
/// one by one. A clip that sets where it ends (`to` or `duration`) takes neither of those
/// defaults. What names an item's content or place (`media`, `color`, `text`, `id`, `at`…) is no
/// default. Merged keys keep the place they were written, so an error in one points at the
/// default. Applied to the checked document, before it is decoded.
public enum ProjectDefaults {
    public static let key = "defaults"

    /// What the items of each kind take from defaults, and what a default may not say.
    enum Kind: String {
        case clip, overlay

        /// Keys that say what an item is or where it sits: each item writes its own.
        var ownKeys: [String: String] {
            switch self {
            case .clip:
                let shows = "each clip says what it shows", place = "each clip has its own place on the timeline"
                return ["media": shows, "color": shows, "glsl": shows, "params": shows, "vars": shows, "name": "each clip has its own name",
                        "id": "each clip has its own id, unique in the project", "at": place]
            case .overlay:
                let shows = "each overlay says what it shows"
                return ["text": shows, "image": shows, "svg": shows, "rect": shows, "ellipse": shows, "at": "each overlay has its own time"]
            }
        }
    }

    /// Keys of which an item sets one or the other: a default for either stands back when the
    /// item writes any of them.
    static let alternatives: [Set<String>] = [["to", "duration"]]

    /// The document with its defaults applied, and the problems with the defaults themselves
    /// (each reported once, at the default; the default is then left out).
    public static func applied(to root: Node) -> (root: Node, problems: [Diagnostic]) {
        guard case .object(var members) = root.value else { return (root, []) }
        var problems: [Diagnostic] = []
        let project = root[key]
        let clip = usable(project?[Kind.clip.rawValue], .clip, path: "\(key).\(Kind.clip.rawValue)", &problems)
        let overlay = usable(project?[Kind.overlay.rawValue], .overlay, path: "\(key).\(Kind.overlay.rawValue)", &problems)
        for i in members.indices {
            switch members[i].key {
            case "video", "audio":
                let video = members[i].key == "video"
                members[i].value = tracks(members[i].value, path: members[i].key, project: video ? clip : [], overlay: video ? overlay : [], &problems)
            case "overlays":
                members[i].value = items(members[i].value, defaults: [overlay]) { _ in true }
            default:
                break
            }
        }
        var result = root
        result.value = .object(members)
        return (result, problems)
    }

    /// Each track of `node` (a `video:` or `audio:` list) with its clips' defaults applied:
    /// the track's own first, then `project`'s; then `overlay` to the overlays each clip holds
    /// (its own or a default's).
    private static func tracks(_ node: Node, path: String, project: [Node.Member], overlay: [Node.Member], _ problems: inout [Diagnostic]) -> Node {
        guard case .array(var tracks) = node.value else { return node }
        for t in tracks.indices {
            let own = usable(tracks[t][key]?[Kind.clip.rawValue], .clip, path: "\(path)[\(t)].\(key).\(Kind.clip.rawValue)", &problems)
            guard !own.isEmpty || !project.isEmpty || !overlay.isEmpty, case .object(var members) = tracks[t].value,
                  let c = members.firstIndex(where: { $0.key == "clips" }) else { continue }
            // A transition or a gap in the list is no clip.
            let isClip = { (item: Node) in item["transition"] == nil && item["gap"] == nil }
            members[c].value = items(members[c].value, defaults: [own, project], accepts: isClip)
            if !overlay.isEmpty { members[c].value = withInlineOverlays(members[c].value, defaults: overlay, accepts: isClip) }
            tracks[t].value = .object(members)
        }
        var result = node
        result.value = .array(tracks)
        return result
    }

    /// `list`'s clips (the items that `accepts`) with `defaults` applied to their `overlays:`.
    private static func withInlineOverlays(_ list: Node, defaults: [Node.Member], accepts: (Node) -> Bool) -> Node {
        guard case .array(var clips) = list.value else { return list }
        for i in clips.indices where accepts(clips[i]) {
            guard case .object(var members) = clips[i].value, let o = members.firstIndex(where: { $0.key == "overlays" }) else { continue }
            members[o].value = items(members[o].value, defaults: [defaults]) { _ in true }
            clips[i].value = .object(members)
        }
        var result = list
        result.value = .array(clips)
        return result
    }

    /// `list`'s items, each that `accepts` merged with `defaults` (earlier layers first).
    private static func items(_ list: Node, defaults: [[Node.Member]], accepts: (Node) -> Bool) -> Node {
        guard case .array(var elements) = list.value else { return list }
        for i in elements.indices where accepts(elements[i]) {
            for layer in defaults where !layer.isEmpty { elements[i] = merged(elements[i], with: layer) }
        }
        var result = list
        result.value = .array(elements)
        return result
    }

    /// `item` with each member of `defaults` it lacks; a text overlay's `style` merged key by
    /// key (other items take no style).
    static func merged(_ item: Node, with defaults: [Node.Member]) -> Node {
        guard case .object(var members) = item.value else { return item }
        let written = Set(members.map(\.key))
        for member in defaults {
            if let i = members.firstIndex(where: { $0.key == member.key }) {
                if member.key == "style", item["text"] != nil { members[i].value = merged(members[i].value, with: objectMembers(member.value)) }
                continue
            }
            if member.key == "style", item["text"] == nil { continue }
            if let group = alternatives.first(where: { $0.contains(member.key) }), !group.isDisjoint(with: written) { continue }
            members.append(member)
        }
        var result = item
        result.value = .object(members)
        return result
    }

    /// The members of a defaults block for items of `kind`, without those no default may set
    /// (each reported).
    private static func usable(_ node: Node?, _ kind: Kind, path: String, _ problems: inout [Diagnostic]) -> [Node.Member] {
        var written = Set<String>()
        return objectMembers(node).filter { member in
            let place = DocumentPath.appending(key: member.key, to: path)
            if let reason = kind.ownKeys[member.key] {
                problems.append(Diagnostic(location: member.keyLocation, path: place, message: "'\(member.key)' cannot be a default: \(reason)",
                                           hint: "write it on each \(kind.rawValue) and keep in defaults what they share"))
                return false
            }
            if let group = alternatives.first(where: { $0.contains(member.key) }), let other = group.intersection(written).first {
                problems.append(Diagnostic(location: member.keyLocation, path: place,
                                           message: "'\(other)' and '\(member.key)' both set where a \(kind.rawValue) ends", hint: "keep one"))
                return false
            }
            written.insert(member.key)
            return true
        }
    }

    private static func objectMembers(_ node: Node?) -> [Node.Member] {
        guard case .object(let members)? = node?.value else { return [] }
        return members
    }
}
