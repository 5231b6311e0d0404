//! OBJ output: one pose, a `.mtl` and PNG skins beside it.

use std::path::Path;

use anyhow::{Context, Result};

use super::{output_dir, output_stem, Args, Input, Plan};

/// Plans writing pose `--frame` of `input` as OBJ.
pub(super) fn plan(args: &Args, input: &Input<'_>, output: &Path) -> Result<Plan> {
    let mut plan = Plan::default();
    let converted = input.model(args, &mut plan.notes)?;
    let model = &converted.model;
    let dir = output_dir(output);
    let stem = output_stem(output);
    let mut names = Vec::new();
    for (i, skin) in model.skins.iter().enumerate() {
        if let Some(p) = skin.pictures.first() {
            let name = format!("{stem}_skin{i}.png");
            plan.files
                .push((dir.join(&name), p.to_png().context("PNG encoding failed")?));
            names.push(name);
        }
    }
    let mtl_name = format!("{stem}.mtl");
    let obj = retromodel::export::obj::to_obj(model, args.frame, &mtl_name, &names)?;
    plan.files.push((dir.join(&mtl_name), obj.mtl.into_bytes()));
    plan.files
        .push((output.to_path_buf(), obj.obj.into_bytes()));
    plan.summary = format!(
        "{} -> {} (frame {}, {} skins)",
        input.path.display(),
        output.display(),
        args.frame,
        names.len()
    );
    Ok(plan)
}
