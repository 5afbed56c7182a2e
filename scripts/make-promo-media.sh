#!/usr/bin/env bash
# Writes the media of Examples/promo (A.mp4, B.mp4, logo.png, music.mp3) with ffmpeg's lavfi
# sources into Examples/promo/media/. Byte-identical on Debian 12's ffmpeg 5.1: this is the
# generator of ../shared/bench (make-sources.sh), kept here so a fresh clone has it.
#   A.mp4     12 s 1920x1080 30 fps testsrc2, 48 kHz stereo AAC 440 Hz sine
#   B.mp4     12 s 1280x720 25 fps HD bars + a moving testsrc box, 44.1 kHz mono AAC 660 Hz sine
#   logo.png  480x160 RGBA, semi-transparent blue box, white border, text
#   music.mp3 22 s 44.1 kHz stereo MP3 of a C-major chord
#   shots/shot1001.png … shot1048.png  an image sequence numbered from 1001 as VFX renders are:
#             2 s of 640x360 testsrc2 at 24 fps, each picture showing its own number (Examples/sequence)
set -euo pipefail
FFMPEG=${FFMPEG:-ffmpeg}
FONT=${FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf}
W=${WORK:-$(cd "$(dirname "$0")/.." && pwd)/Examples/promo/media}
mkdir -p "$W"
ff() { "$FFMPEG" -hide_banner -loglevel error -nostdin -y "$@"; }

if [ ! -s "$W/shots/shot1048.png" ]; then
  mkdir -p "$W/shots"
  ff -f lavfi -i "testsrc2=size=640x360:rate=24:duration=2" \
     -vf "drawtext=fontfile=$FONT:text='%{eif\:n+1001\:d}':fontsize=96:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=12:x=(w-text_w)/2:y=(h-text_h)/2" \
     -start_number 1001 -flags +bitexact "$W/shots/shot%04d.png"
fi
if [ -s "$W/A.mp4" ] && [ -s "$W/B.mp4" ] && [ -s "$W/logo.png" ] && [ -s "$W/music.mp3" ]; then exit 0; fi
BX=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)
TAG709=(-colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv)
TO709="scale=out_color_matrix=bt709:out_range=tv"

ff -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=12,format=rgb24,$TO709,format=yuv420p" \
   -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=12" \
   -map 0:v -map 1:a -c:v libx264 -preset medium -crf 20 -pix_fmt yuv420p "${TAG709[@]}" \
   -c:a aac -b:a 128k -ar 48000 -ac 2 "${BX[@]}" -t 12 "$W/A.mp4"

ff -f lavfi -i "smptehdbars=size=1280x720:rate=25:duration=12" \
   -f lavfi -i "testsrc=size=320x240:rate=25:duration=12" \
   -f lavfi -i "sine=frequency=660:sample_rate=44100:duration=12" \
   -filter_complex "[0:v]format=yuv420p[bars];[1:v]format=rgb24,$TO709,format=yuv420p[box];[bars][box]overlay=x='mod(t*160\,960)':y='240+120*sin(t)',format=yuv420p[v]" \
   -map "[v]" -map 2:a -c:v libx264 -preset medium -crf 20 -pix_fmt yuv420p "${TAG709[@]}" \
   -c:a aac -b:a 96k -ar 44100 -ac 1 "${BX[@]}" -t 12 "$W/B.mp4"

ff -f lavfi -i "color=c=0x1E5AC8@0.6:size=464x144:duration=1,format=rgba" \
   -vf "pad=480:160:8:8:color=white@1.0,drawtext=fontfile=$FONT:text='ACME':fontsize=72:fontcolor=0xFFD700:x=(w-text_w)/2:y=(h-text_h)/2" \
   -frames:v 1 -pix_fmt rgba -flags +bitexact "$W/logo.png"

ff -f lavfi -i "aevalsrc=0.25*sin(2*PI*261.63*t)+0.2*sin(2*PI*329.63*t)+0.2*sin(2*PI*392.00*t)|0.2*sin(2*PI*261.63*t)+0.25*sin(2*PI*329.63*t)+0.2*sin(2*PI*392.00*t):s=44100:d=22" \
   -c:a libmp3lame -b:a 192k -ar 44100 -ac 2 "${BX[@]}" -write_xing 0 -id3v2_version 0 "$W/music.mp3"
