// Package vision reads a real Go board from camera frames: camera sources (V4L2, GStreamer /
// libcamera, video files, directories of stills, and a frame function for the built-in demo)
// and the stone classifier. What leaves the package is plain data (observe.Observation).
//
// # Reading a frame
//
// A Reader is made for one calibration (tengen/calib). For every frame it
//
//  1. warps the board to a canonical square (20 px between lines on 19x19) with the calibration's
//     homography, so every intersection sits at a known pixel whatever the camera angle;
//  2. estimates the board's own brightness and colour around each point from the centres of the
//     surrounding squares, which stones never cover in a top view (median of up to 4x4 cells, so
//     uneven and coloured light, and the shadows stones cast, are divided out);
//  3. measures each point's disc: median brightness relative to that local board, colour shift
//     from the board, and whether the grid-line cross is still visible in it;
//  4. calibrates thresholds from the frame itself: the typical brightness of its empty points,
//     of its clearly black stones and of its clearly white stones;
//  5. classifies: black = much darker than the board and not a shadow (a shadow still shows the
//     lines); white = brighter, more neutral than the board (never redder: skin is) and hiding the
//     lines (glare does not); then searches dark stone-sized blobs and gives each to the nearest
//     free point after removing the frame's median stone parallax, which recovers stones placed off
//     their point or seen from a low angle, and rejects blobs that overlap a stone already found and
//     are lighter than real black stones (its shadow);
//  6. marks Obscured the groups of points covered by something that is neither board nor stone:
//     bright, off-colour board all around the point with the grid lines hidden (a hand, a sleeve).
//
// Reading.Stones are as seen in the image (row 0 nearest the image top); Reading.Observation turns
// them into board coordinates from Black's side with the calibration's BlackSide.
// observe.Stabilizer then passes on only readings that stayed unchanged, with nothing obscured.
//
// # Stills
//
// Detect and DetectFile read a single photograph: they find the board (calib.Find) unless given a
// calibration, and CheckGrid guards against a grid found one line off.
package vision
