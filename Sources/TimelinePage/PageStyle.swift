/// The page's only stylesheet, inlined in `<head>`, and the sizes the layout code shares with it.
enum PageStyle {
    /// Width of the track names column, CSS pixels.
    static let headWidth = 184
    /// Room right of the time area for the last ruler label.
    static let rightPadding = 84
    /// Height of a video row (transitions span whole rows).
    static let videoRowHeight = 80
    /// Space between rows.
    static let rowGap = 4

    static let css = """
        :root{color-scheme:dark;--head:\(headWidth)px;--ink:#e6e8ee;--muted:#8d93a3;--page:#121419;--amber:#f2b233}
        *{box-sizing:border-box}
        body{margin:0;background:var(--page);color:var(--ink);font:13px/1.35 system-ui,"DejaVu Sans",sans-serif}
        header{padding:14px 20px 10px}
        h1{margin:0 0 8px;font-size:20px;font-weight:600;overflow-wrap:anywhere}
        .facts{display:flex;flex-wrap:wrap;gap:4px 22px;margin:0}
        .facts div{display:flex;gap:6px;align-items:baseline}
        .facts dt{color:var(--muted);font-size:11px;text-transform:uppercase;letter-spacing:.05em}
        .facts dd{margin:0;font-variant-numeric:tabular-nums}
        .counts{color:var(--muted);margin:8px 0 0}
        .swatch{display:inline-block;width:12px;height:12px;border-radius:3px;border:1px solid #ffffff70;vertical-align:-2px;margin-right:5px;flex:none}
        .swatch.ellipse{border-radius:50%}
        .scroll{overflow-x:auto;padding-bottom:10px}
        .board{position:relative;padding-right:\(rightPadding)px}
        .grid{position:absolute;left:var(--head);right:\(rightPadding)px;top:0;bottom:0;pointer-events:none}
        .grid i{position:absolute;top:0;bottom:0;border-left:1px solid #ffffff12}
        .caption{position:sticky;left:0;width:max-content;padding:12px 12px 4px;color:var(--muted);font-size:11px;text-transform:uppercase;letter-spacing:.06em}
        .group{position:relative}
        .row{display:flex;margin-bottom:\(rowGap)px;height:44px}
        .row.video{height:\(videoRowHeight)px}
        .row.ruler{height:34px;margin-bottom:2px}
        .row.instructions{height:34px}
        .row.overlay{height:42px}
        .head{position:sticky;left:0;z-index:5;width:var(--head);flex:none;padding:3px 10px;background:#1c1f27;border-right:1px solid #2e3340;display:flex;flex-direction:column;justify-content:center;overflow:hidden}
        .head b,.head small{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .head b{font-weight:600}
        .head small{color:var(--muted);font-size:11px}
        .lane{position:relative;flex:1;background:#ffffff08}
        .ruler .head,.instructions .head{background:var(--page)}
        .ruler .lane{background:none;border-bottom:1px solid #454b5a}
        .tick{position:absolute;bottom:0;height:6px;border-left:1px solid #5c6272}
        .tick.major{height:100%;border-left-color:#9aa0ae;padding:3px 0 0 4px;font:10px/1 ui-monospace,"DejaVu Sans Mono",monospace;color:#c3c8d2;white-space:nowrap}
        .band{position:absolute;top:5px;bottom:5px;min-width:2px;padding:0 5px;border-radius:3px;box-shadow:inset -1px 0 var(--page);font-size:11px;line-height:20px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .band.empty{background:#242830;color:#6c7180}
        .band.single{background:#2d3442;color:#aeb4c2}
        .band.layered{background:#44557a;color:#e3e8f4}
        .band.transition{background:var(--amber);color:#231800;font-weight:700;z-index:1}
        .box{position:absolute;top:4px;bottom:4px;min-width:3px;padding:3px 5px;border-radius:4px;overflow:hidden;box-shadow:inset 0 0 0 1px #ffffff24,0 0 0 1px #0009;display:grid;grid-template-columns:auto minmax(0,1fr);grid-template-rows:auto minmax(0,1fr);column-gap:6px;align-items:start}
        .box .name{grid-area:1/1/2/3;display:flex;align-items:center;gap:5px;min-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .box .name b{font-weight:600;font-size:12px;overflow:hidden;text-overflow:ellipsis}
        .box .thumb{grid-area:2/1/3/2;height:\(videoRowHeight - 30)px;margin-top:2px;border-radius:2px;background:#000;display:block}
        .box .range{grid-area:2/2/3/3;margin-top:2px;font-size:11px;color:#ffffffc8;font-variant-numeric:tabular-nums;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .box .icon{height:16px;max-width:48px;object-fit:contain;flex:none}
        .box.video,.box.still,.band{container-type:inline-size}
        @container (max-width:220px){.box .thumb+.range{display:none}}
        @container (max-width:60px){.band span{display:none}}
        .box.video{background:#2c5596}
        .box.still{background:#23777d}
        .box.shader{background:linear-gradient(90deg,#7a3b8f,#2f6f9a)}
        .box.audio{background:#2b6e47}
        .box.overlay{background:#5d4591}
        .box.overlay.text{background:#6e4a8e}
        .box.color.dark,.box.color.dark .range{color:#111}
        .box.color.light{color:#fff}
        .badge{font-size:10px;line-height:14px;padding:0 5px;border-radius:7px;background:#00000055;color:#ffffffd0;flex:none}
        .speed{font-size:11px;font-weight:700;color:#ffe08a;flex:none}
        .joins{position:absolute;left:var(--head);right:0;top:0;bottom:0;pointer-events:none;z-index:3}
        .join{position:absolute;min-width:6px;border:2px solid var(--amber);border-radius:5px;background:repeating-linear-gradient(135deg,#f2b23340 0 4px,#f2b2330c 4px 10px);pointer-events:auto}
        .join span{position:absolute;left:-2px;transform:translateY(-50%);width:max-content;max-width:112px;padding:1px 6px;border-radius:8px;background:var(--amber);color:#231800;font-size:11px;font-weight:700;line-height:13px;box-shadow:0 1px 4px #000a}
        .join .upper{top:25%}
        .join .lower{top:75%}
        .volume{position:absolute;left:0;top:3px;width:100%;height:calc(100% - 6px);overflow:visible;pointer-events:none}
        .volume polygon{fill:#ffd54a26}
        .volume polyline{fill:none;stroke:#ffd54a;stroke-width:2;stroke-linejoin:round;vector-effect:non-scaling-stroke}
        .duck{position:absolute;left:0;top:3px;width:100%;height:calc(100% - 6px);overflow:visible;pointer-events:none}
        .duck polygon{fill:none}
        .duck polyline{fill:none;stroke:#4fc3f7;stroke-width:2;stroke-dasharray:6 3;stroke-linejoin:round;vector-effect:non-scaling-stroke}
        .legend{display:flex;flex-wrap:wrap;gap:6px 18px;margin:4px 20px 10px;padding:0;list-style:none;color:var(--muted);font-size:12px}
        .legend li{display:flex;align-items:center;gap:6px}
        .key{display:inline-block;position:static;width:22px;height:12px;border-radius:3px;box-shadow:none;padding:0}
        .key.join{border-width:1px}
        .key.curve{height:2px;background:#ffd54a}
        .key.curve.duck{background:#4fc3f7}
        .listing{margin:0 20px 24px;color:var(--muted)}
        .listing pre{color:var(--ink);font:11px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;white-space:pre;overflow-x:auto;background:#0c0d11;padding:10px;border-radius:6px}

        """
}
